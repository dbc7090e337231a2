/**
 * From cell batches to GET /evm/grid-monitoring/grid-status: states per threshold, the worst
 * state rolled up the tree, one alarm for an outage at a transformer station.
 */
import assert from "node:assert/strict";
import { DEMO_USERS } from "../../modules/demo/mod.ts";
import type { StationGroupDto } from "../../modules/grid/mod.ts";
import { createLogger, EventBus } from "../../kernel/mod.ts";
import type { FullGridStatusDto, NodeStateChanged } from "../../modules/monitoring/mod.ts";
import { startTestPlatform, type TestPlatform } from "../helpers/platform.ts";

type NodeDto =
  FullGridStatusDto["station_groups"][number]["mv_feeder_groups"][number]["lv_groups"][number][
    "nodes"
  ][
    number
  ];

const nodesOf = (s: FullGridStatusDto): NodeDto[] =>
  s.station_groups.flatMap((g) =>
    g.mv_feeder_groups.flatMap((m) => m.lv_groups.flatMap((l) => l.nodes))
  );

async function send(
  platform: TestPlatform,
  credential: string,
  slots: number[],
  u: number,
  i = 40,
  /** Windows after the last complete one (a later reading of the same cell). */
  later = 0,
) {
  const now = Date.now();
  const ts = new Date(now - (now % 20_000) - 20_000 + later * 20_000).toISOString();
  const measurements = slots.flatMap((feeder) =>
    ["L1", "L2", "L3"].map((phase) => ({ ts, feeder, phase, u, i }))
  );
  const res = await platform.request("/ingest/v1/batches", {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${credential}` },
    body: JSON.stringify({ measurements }),
  });
  assert.equal(res.status, 200, await res.text());
}

Deno.test({
  name: "grid status follows the cells' latest values and suppresses alarms below an outage",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const platform = await startTestPlatform("pglite");
    try {
      const { cells, customers } = platform.services;
      const demo = (await customers.getByConnection("demo-ew"))!;
      const token =
        (await platform.login(DEMO_USERS[0].email, DEMO_USERS[0].password)).access_token;
      const structure =
        await (await platform.request("/gsm/grid-structure/hv-mv-station-groups", { token }))
          .json() as StationGroupDto[];
      const nodes = new Map(
        structure.flatMap((g) =>
          g.mv_feeder_groups.flatMap((m) => m.lv_groups.flatMap((l) => l.nodes))
        )
          .map((n) => [n.name, n]),
      );
      const installed = await cells.listFor(demo.key, "INSTALLED");
      const credentialOf = (name: string) =>
        cells.rotateCredential(installed.find((c) => c.node_id === nodes.get(name)!.id)!.id);
      const slotsOf = (name: string) => nodes.get(name)!.feeders.map((f) => f.slot);

      await send(platform, await credentialOf("TS Seeblick"), slotsOf("TS Seeblick"), 231);
      await send(platform, await credentialOf("CAB Seeblick 1"), slotsOf("CAB Seeblick 1"), 226);
      await send(platform, await credentialOf("CAB Seeblick 2"), slotsOf("CAB Seeblick 2"), 204); // < 207 V
      await send(platform, await credentialOf("TS Dorf"), slotsOf("TS Dorf"), 0, 0); // outage
      for (const name of ["CAB Dorfplatz", "CAB Kirchweg", "CAB Mühlebach"]) {
        await send(platform, await credentialOf(name), slotsOf(name), 0, 0);
      }

      const res = await platform.request("/evm/grid-monitoring/grid-status?level=LV", { token });
      assert.equal(res.status, 200);
      const status = await res.json() as FullGridStatusDto;
      const byName = new Map(nodesOf(status).map((n) => [n.name, n]));
      assert.equal(byName.get("TS Seeblick")!.state, "OK");
      assert.equal(byName.get("CAB Seeblick 1")!.state, "OK");
      assert.equal(byName.get("CAB Seeblick 2")!.state, "UNDERVOLTAGE");
      assert.equal(byName.get("CAB Seeblick 2")!.feeders[0]!.phases[0]!.u, 204);
      assert.equal(byName.get("CAB Seeblick 4")!.state, "NO_DATA");
      assert.equal(byName.get("TS Dorf")!.state, "INTERRUPTION");
      assert.equal(byName.get("CAB Kirchweg")!.suppressed_by, byName.get("TS Dorf")!.id);
      const seeblick = status.station_groups[0]!.mv_feeder_groups.find((m) =>
        m.name === "MV feeder Seeblick"
      )!;
      assert.equal(
        seeblick.state,
        "INTERRUPTION",
        "the worst state rolls up to the MV feeder group",
      );
      // Alarms: Seeblick 2 (undervoltage), Seeblick 3 (silent; Seeblick 4 behind it is suppressed),
      // TS Dorf (outage, once), and the stations of the three silent LV grids.
      assert.equal(byName.get("CAB Seeblick 4")!.suppressed_by, byName.get("CAB Seeblick 3")!.id);
      assert.equal(status.counts.INTERRUPTION, 4);
      assert.equal(status.alarms, 1 + 1 + 1 + 3);
      assert.equal(status.has_mv_values, true, "TS Dorf and TS Industrie measure MV lines");

      const { gridStatus } = platform.services;
      const bus = new EventBus(createLogger("error"));
      const changes: NodeStateChanged[] = [];
      bus.subscribe("monitoring.nodeStateChanged", (e) => void changes.push(e));
      await gridStatus.publishChanges(bus, [demo.key]);
      assert.equal(changes.length, 0, "the first evaluation sets the baseline");
      await send(
        platform,
        await credentialOf("CAB Seeblick 2"),
        slotsOf("CAB Seeblick 2"),
        230,
        40,
        1,
      );
      await gridStatus.publishChanges(bus, [demo.key]);
      assert.deepEqual(changes.map((c) => [c.nodeName, c.from, c.to, c.level]), [
        ["CAB Seeblick 2", "UNDERVOLTAGE", "OK", "LV"],
      ]);

      const mv =
        await (await platform.request("/evm/grid-monitoring/grid-status?level=MV", { token }))
          .json() as FullGridStatusDto;
      // Only the stations measuring MV: TS Dorf's outage, TS Industrie silent here
      // (tests/integration/demo_mv_test.ts has MV values).
      assert.deepEqual(nodesOf(mv).map((n) => [n.name, n.state]).sort(), [
        ["TS Dorf", "INTERRUPTION"],
        ["TS Industrie", "NO_DATA"],
      ]);
      const bad = await platform.request("/evm/grid-monitoring/grid-status?level=HV", { token });
      assert.equal(bad.status, 400);
      await bad.body?.cancel();

      // Gzip when accepted, a weak ETag answered with 304 while no value changed, and changed
      // thresholds applied by the very next request.
      const lvPath = "/evm/grid-monitoring/grid-status?level=LV";
      const zipped = await platform.request(lvPath, {
        token,
        headers: { "accept-encoding": "gzip, deflate, br" },
      });
      assert.equal(zipped.status, 200);
      assert.equal(zipped.headers.get("content-encoding"), "gzip");
      assert.equal(zipped.headers.get("vary"), "Accept-Encoding");
      const etag = zipped.headers.get("etag")!;
      assert.match(etag, /^W\/"/);
      const unzipped = JSON.parse(
        await new Response(zipped.body!.pipeThrough(new DecompressionStream("gzip"))).text(),
      ) as FullGridStatusDto;
      assert.equal(nodesOf(unzipped).find((n) => n.name === "CAB Seeblick 1")!.state, "OK");
      const plain = await platform.request(lvPath, { token });
      assert.equal(plain.headers.get("content-encoding"), null);
      assert.deepEqual(await plain.json(), unzipped, "the same evaluation either way");
      const unchanged = await platform.request(lvPath, {
        token,
        headers: { "if-none-match": etag },
      });
      assert.equal(unchanged.status, 304);
      await unchanged.body?.cancel();

      const admin = (await platform.login(DEMO_USERS[1].email, DEMO_USERS[1].password))
        .access_token;
      const put = await platform.request(`/csm/customers/${demo.key}/grid-monitoring-settings`, {
        method: "PUT",
        token: admin,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          warning_thresholds: { overvoltage_pct: 10, undervoltage_pct: 1, overcurrent_pct: 100 },
        }),
      });
      assert.equal(put.status, 200, await put.text());
      const stricter = await platform.request(lvPath, {
        token,
        headers: { "if-none-match": etag },
      });
      assert.equal(stricter.status, 200, "new thresholds: a new evaluation");
      assert.notEqual(stricter.headers.get("etag"), etag);
      const after = await stricter.json() as FullGridStatusDto;
      assert.equal(
        nodesOf(after).find((n) => n.name === "CAB Seeblick 1")!.state,
        "UNDERVOLTAGE",
        "226 V is below 230 V - 1 %",
      );
    } finally {
      await platform.close();
    }
  },
});
