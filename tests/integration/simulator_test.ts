/**
 * From the simulator to the screens' data: the demo cells' history goes through the ingestion
 * core, is aggregated, and the grid status and EN 50160 read it.
 */
import assert from "node:assert/strict";
import { nodeCompliance, SLOT_GRACE_MS, SLOT_MS } from "../../core/mod.ts";
import { backfill, DEMO_USERS, demoSimCells } from "../../modules/demo/mod.ts";
import type { FullGridStatusDto } from "../../modules/monitoring/mod.ts";
import { createLogger } from "../../kernel/mod.ts";
import { startTestPlatform } from "../helpers/platform.ts";

Deno.test({
  name: "simulated demo cells fill the 10-minute aggregates, the grid status and EN 50160 results",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const platform = await startTestPlatform("pglite");
    try {
      const { measurements, aggregator } = platform.services;
      const deps = {
        ...platform.services,
        store: measurements,
        logger: createLogger("error"),
        baseUrl: "http://unused",
        backfillDays: 0,
        rawLifetimeDays: 30,
      };
      const now = Date.now();
      const cells = await demoSimCells(deps, now);
      assert.equal(cells.length, 20);
      const to = now - (now % 20_000);
      const from = to - 2 * 3_600_000;
      const rows = await backfill(deps, cells, from, to);
      assert.ok(rows > 20 * 2 * 180 * 8, `rows stored: ${rows}`);
      await aggregator.flush(to + SLOT_MS + SLOT_GRACE_MS);

      const token =
        (await platform.login(DEMO_USERS[0].email, DEMO_USERS[0].password)).access_token;
      const status =
        await (await platform.request("/evm/grid-monitoring/grid-status?level=LV", { token }))
          .json() as FullGridStatusDto;
      const nodes = status.station_groups.flatMap((g) =>
        g.mv_feeder_groups.flatMap((m) => m.lv_groups.flatMap((l) => l.nodes))
      );
      const byName = new Map(nodes.map((n) => [n.name, n]));
      assert.equal(
        byName.get("CAB Waldrand")!.state,
        "NO_DATA",
        "the cell that went offline two hours ago",
      );
      assert.ok(nodes.filter((n) => n.name !== "CAB Waldrand").every((n) => n.state !== "NO_DATA"));
      const u = byName.get("TS Seeblick")!.feeders[0]!.phases[0]!.u!;
      assert.ok(u > 220 && u < 245, `a plausible station voltage: ${u}`);

      const demo = (await platform.services.customers.getByConnection("demo-ew"))!;
      const stationCell = (await platform.services.cells.listFor(demo.key, "INSTALLED"))
        .find((c) => c.node_id === byName.get("TS Seeblick")!.id)!;
      const phases = [0, 1, 2].map((p) => measurements.seriesId(stationCell.id, 1, p));
      const start = from - (from % SLOT_MS) + SLOT_MS;
      const result = await nodeCompliance(
        platform.services.analytics,
        { phases, nominalVoltage: 230, nominalFrequency: 50 },
        new Date(start),
        new Date(start + 6 * SLOT_MS),
      );
      const voltage = result.parameters.find((p) => p.parameter === "voltage")!;
      assert.equal(voltage.n + voltage.flagged, 6, "six closed slots, each valid or flagged");
      assert.equal(voltage.missing, 0);
      assert.equal(voltage.passed, true);
    } finally {
      await platform.close();
    }
  },
});
