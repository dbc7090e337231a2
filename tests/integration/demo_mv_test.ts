/**
 * The demo utility's MV level: two transformer stations also measure an outgoing MV line (MV
 * sensors) and report their transformer from the MV side (MV voltage estimation). With the
 * simulator's last 20 minutes stored, grid monitoring shows them at MV with MV values and OK
 * states, the LV level keeps every node, and the demo structure obeys the setup's MV rules.
 */
import assert from "node:assert/strict";
import { backfill, DEMO_USERS, demoSimCells } from "../../modules/demo/mod.ts";
import type { StationGroupDto } from "../../modules/grid/mod.ts";
import { createLogger } from "../../kernel/mod.ts";
import type { FullGridStatusDto } from "../../modules/monitoring/mod.ts";
import { databaseKinds, startTestPlatform } from "../helpers/platform.ts";

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
/** 16 kV / sqrt(3): the MV nominal phase voltage grid monitoring evaluates against. */
const MV_UN = 16_000 / Math.sqrt(3);
const MV_STATIONS = ["TS Dorf", "TS Industrie"];

for (const kind of databaseKinds()) {
  Deno.test({
    name: `the demo's MV lines and MV-estimating transformers show at MV with MV values (${kind})`,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      const platform = await startTestPlatform(kind);
      try {
        const user = (await platform.login(DEMO_USERS[0].email, DEMO_USERS[0].password))
          .access_token;
        const admin = (await platform.login(DEMO_USERS[1].email, DEMO_USERS[1].password))
          .access_token;
        const get = async <T>(path: string) => {
          const res = await platform.request(path, { token: user });
          assert.equal(res.status, 200, `${path}: ${res.status}`);
          return await res.json() as T;
        };
        const structure = await get<StationGroupDto[]>("/gsm/grid-structure/hv-mv-station-groups");
        const nodes = new Map(
          structure.flatMap((g) =>
            g.mv_feeder_groups.flatMap((m) => m.lv_groups.flatMap((l) => l.nodes))
          ).map((n) => [n.name, n]),
        );
        for (const name of MV_STATIONS) {
          const feeders = nodes.get(name)!.feeders;
          const line = feeders.find((f) => f.type === "MV_LINE")!;
          assert.ok(line, `${name} measures an MV line`);
          assert.equal(feeders.length, new Set(feeders.map((f) => f.slot)).size);
          assert.ok(feeders.every((f) => f.slot >= 1 && f.slot <= 6));
          const transformer = feeders.find((f) => f.type === "TRANSFORMER")!;
          assert.equal(transformer.parameters.mvVoltageEstimation, true);
        }
        const others = [...nodes.values()].filter((n) => !MV_STATIONS.includes(n.name));
        assert.ok(others.every((n) => n.feeders.every((f) => f.type !== "MV_LINE")));

        // The setup's MV rules hold for the demo: editing the MV line is accepted (else 309),
        // disabling the transformer's MV estimation while the line exists is 313.
        const industrie = nodes.get("TS Industrie")!;
        const put = (feeder: (typeof industrie.feeders)[number], parameters: object) =>
          platform.request(`/gsm/nodes/${industrie.id}/feeders/${feeder.id}`, {
            method: "PUT",
            token: admin,
            headers: { "content-type": "application/json" },
            body: JSON.stringify({
              name: feeder.name,
              type: feeder.type,
              in_out: feeder.in_out,
              nominal_current_a: feeder.nominal_current_a,
              parameters,
            }),
          });
        const line = industrie.feeders.find((f) => f.type === "MV_LINE")!;
        const kept = await put(line, line.parameters);
        assert.equal(kept.status, 200, await kept.text());
        const transformer = industrie.feeders.find((f) => f.type === "TRANSFORMER")!;
        const refused = await put(transformer, {
          ...transformer.parameters,
          mvVoltageEstimation: false,
        });
        assert.equal(refused.status, 409);
        assert.equal((await refused.json()).code, 313);

        // The simulator's last 20 minutes of every demo cell, stored like the demo's backfill.
        const deps = {
          ...platform.services,
          store: platform.services.measurements,
          logger: createLogger("error"),
          baseUrl: "http://unused",
          backfillDays: 0,
          rawLifetimeDays: 30,
        };
        const now = Date.now();
        const cells = await demoSimCells(deps, now);
        assert.equal(cells.length, 20);
        const to = now - (now % 20_000);
        await backfill(deps, cells, to - 20 * 60_000, to);

        const mv = await get<FullGridStatusDto>("/evm/grid-monitoring/grid-status?level=MV");
        assert.equal(mv.has_mv_values, true);
        const mvNodes = nodesOf(mv);
        assert.deepEqual(mvNodes.map((n) => n.name).sort(), MV_STATIONS);
        for (const node of mvNodes) {
          assert.equal(node.state, "OK", `${node.name} at MV`);
          assert.deepEqual(node.feeders.map((f) => f.type).sort(), ["MV_LINE", "TRANSFORMER"]);
          for (const feeder of node.feeders) {
            assert.equal(feeder.state, "OK");
            for (const p of feeder.phases) {
              assert.ok(p.u! > 0.97 * MV_UN && p.u! < 1.03 * MV_UN, `${node.name} ${p.u} V`);
              assert.ok(p.i! > 0 && p.i! < (feeder.type === "MV_LINE" ? 120 : 22.73), `${p.i} A`);
            }
          }
        }
        assert.equal(mv.alarms, 0);
        assert.equal(mv.counts.OK, 2);

        // LV: every node stays, the two stations with their LV lines and LV voltages.
        const lv = await get<FullGridStatusDto>("/evm/grid-monitoring/grid-status?level=LV");
        assert.equal(lv.has_mv_values, true);
        const lvNodes = new Map(nodesOf(lv).map((n) => [n.name, n]));
        assert.equal(lvNodes.size, 20);
        for (const name of MV_STATIONS) {
          const node = lvNodes.get(name)!;
          assert.equal(node.state, "OK");
          assert.ok(node.feeders.length >= 3 && node.feeders.every((f) => f.type === "LV_LINE"));
        }
        for (const node of lvNodes.values()) {
          for (const p of node.feeders.flatMap((f) => f.phases)) {
            if (p.u !== null) assert.ok(p.u > 200 && p.u < 260, `${node.name} ${p.u} V`);
          }
        }
        assert.equal(lvNodes.get("CAB Waldrand")!.state, "NO_DATA", "offline for two hours");

        // The node detail at MV: limits from the MV nominal, phases in the kV range.
        const dorf = nodes.get("TS Dorf")!;
        const detail = await get<{
          level: string;
          state: string;
          limits: { nominal_voltage_v: number };
          feeders: { type: string; phases: { phase: string; u: number | null }[] }[];
        }>(`/evm/grid-monitoring/nodes/${dorf.id}?level=MV`);
        assert.equal(detail.level, "MV");
        assert.equal(detail.state, "OK");
        assert.ok(Math.abs(detail.limits.nominal_voltage_v - MV_UN) < 1);
        const l1 = detail.feeders.find((f) => f.type === "MV_LINE")!.phases[0]!;
        assert.ok(l1.u! > 9000 && l1.u! < 9600, `${l1.u}`);
        const lvOnly = await platform.request(
          `/evm/grid-monitoring/nodes/${nodes.get("CAB Rebberg")!.id}?level=MV`,
          { token: user },
        );
        assert.equal(lvOnly.status, 404, "a cabinet has no MV feeder");
        await lvOnly.body?.cancel();

        // Visual statistics at MV: the MV line's 20-s voltages and currents.
        const dorfLine = dorf.feeders.find((f) => f.type === "MV_LINE")!;
        const from = new Date(to - 15 * 60_000).toISOString();
        const series = await get<{
          charts: { parameter: string; series: { values: (number | null)[] }[] }[];
        }>(
          `/vsm/series?feeders=${dorfLine.id}&parameters=u,i&level=MV&from=${from}&to=${
            new Date(to).toISOString()
          }`,
        );
        const [u, i] = series.charts.map((c) => c.series.flatMap((s) => s.values));
        const uValues = u!.filter((v): v is number => v !== null);
        assert.ok(uValues.length > 0 && uValues.every((v) => v > 9000 && v < 9600));
        assert.ok(i!.some((v) => v !== null && v > 5 && v < 120));
      } finally {
        await platform.close();
      }
    },
  });
}
