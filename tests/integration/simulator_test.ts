/**
 * From the simulator to the screens' data: the demo cells' history goes through the ingestion
 * core, is aggregated, and the grid status and EN 50160 read it. The demo cells speak protocol
 * v2 (10-minute PQ records); the same cells on protocol v1 over HTTP give the same PQ values,
 * folded by the platform.
 */
import assert from "node:assert/strict";
import { nodeCompliance, SLOT_GRACE_MS, SLOT_MS } from "../../core/mod.ts";
import { runBackfill, slotPqRecords } from "../../core/simulator/mod.ts";
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
      // Harmonics, flicker and unbalance from the cells' 10-minute PQ records.
      for (const parameter of ["h5", "thd", "unbalance"]) {
        const counts = result.parameters.find((p) => p.parameter === parameter)!;
        assert.equal(counts.n + counts.flagged, 6, parameter);
        assert.equal(counts.missing, 0, parameter);
      }
      assert.equal(result.parameters.find((p) => p.parameter === "h5")!.passed, true);

      // Protocol v1 over HTTP: a cell like the station's (a cell in stock: every feeder slot is
      // accepted) whose firmware sends PQ values every 20 s. The platform's folds equal the
      // records the same simulated cell sends in protocol v2.
      const twin = (await platform.services.cells.listFor(demo.key, "IN_STOCK"))[0]!;
      const credential = await platform.services.cells.rotateCredential(twin.id);
      const simulated = { ...cells.find((c) => c.cellId === stationCell.id)!, cellId: twin.id };
      const slot = start + 2 * SLOT_MS;
      const stats = await runBackfill({
        baseUrl: "http://platform",
        cells: [{ ...simulated, credential }],
        seed: 42,
        signal: new AbortController().signal,
        fetch: (input, init) => platform.request(new URL(String(input)).pathname, init),
        fromMs: slot,
        toMs: slot + SLOT_MS,
        protocol: 1,
      });
      assert.deepEqual([stats.sent, stats.rejected], [30, 0]);
      await measurements.writeFolds(slot + SLOT_MS + SLOT_GRACE_MS);
      const pq = async (cellId: string) =>
        (await platform.services.analytics.runAndReadAll(
          `SELECT s.feeder, s.phase, p.origin, p.pst, p.plt, p.unbalance, p.h5, p.h25
           FROM pq_10min p JOIN series s USING (series_id)
           WHERE s.cell_id = '${cellId}' AND p.slot = make_timestamp(${slot * 1000})
           ORDER BY s.feeder, s.phase`,
        )).getRows() as number[][];
      const folded = await pq(twin.id);
      const phaseNames = ["L1", "L2", "L3"];
      const device = slotPqRecords(simulated, slot, 42).map((r) => [
        r.feeder,
        phaseNames.indexOf(r.phase),
        2,
        r.pst!,
        r.plt!,
        r.unbalance!,
        r.h_u![3]!,
        r.h_u![23]!,
      ]);
      assert.ok(device.length >= 3);
      assert.deepEqual(folded.map((r) => r.slice(0, 3)), device.map((r) => r.slice(0, 3)));
      folded.forEach((row, k) =>
        row.slice(3).forEach((v, c) =>
          // The device rounds its record to 0.01.
          assert.ok(Math.abs(v - device[k]![3 + c]!) <= 0.005 + 1e-6, `${k}/${c}: ${v}`)
        )
      );
      // The demo cell's own v2 records are stored as sent.
      const own = await pq(stationCell.id);
      assert.deepEqual(
        own.map((r) => r.slice(0, 4)),
        slotPqRecords(cells.find((c) => c.cellId === stationCell.id)!, slot, 42)
          .map((r) => [r.feeder, phaseNames.indexOf(r.phase), 1, Math.fround(r.pst!)]),
      );
    } finally {
      await platform.close();
    }
  },
});
