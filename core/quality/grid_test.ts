import assert from "node:assert/strict";
import { DuckDBInstance } from "@duckdb/node-api";
import { DDL, HARMONIC_ORDERS } from "../ingest/schema.ts";
import { PqRollups } from "../ingest/pq_rollup.ts";
import { releaseNativeHandles } from "../time_series_store.ts";
import { evaluateGridWeek } from "./grid.ts";
import { loadComplianceInputs } from "./load.ts";
import { evaluateCompliance } from "../en50160/mod.ts";

const FROM = Date.parse("2026-11-16T00:00:00Z");
const TO = FROM + 7 * 86_400_000;

Deno.test("evaluateGridWeek() gives the engine's results of loadComplianceInputs, in input order, batch by batch", async () => {
  const instance = await DuckDBInstance.create(":memory:");
  const c = await instance.connect();
  try {
    for (const statement of DDL) await c.run(statement);
    // 8 feeders x 3 phases over a week: noise, NULLs, missing slots, flags, low voltages on
    // feeder 2, a high 5th harmonic on feeder 4, high unbalance on feeder 8 (series 20: its
    // first phase, L1 has none) and on phases that do not carry the unbalance (series 5, 21);
    // feeder 6 has no series; ids are not in order.
    const noise = (k: number) => `((hash(s, slot, ${k}) % 1000) / 1000.0)`;
    const time = `make_timestamp(${FROM * 1000}::BIGINT + slot * 600000000)`;
    const rows = `FROM range(1, 22) a(s), range(1008) b(slot) WHERE hash(s, slot) % 97 <> 0`;
    await c.run(`INSERT INTO agg_10min (series_id, slot, n, u_rms, thd_u, f_min, f_max, flagged)
      SELECT s, ${time}, 30,
        CASE WHEN hash(s, slot, 1) % 200 = 0 THEN NULL
             WHEN s BETWEEN 4 AND 6 AND slot % 15 = 0 THEN 200 ELSE 228 + 6 * ${noise(2)} END,
        2 + ${noise(3)}, 49.98 + 0.01 * ${noise(4)}, 50.0 + 0.02 * ${noise(5)},
        hash((s - 1) // 3, slot, 6) % 300 = 0 OR (s BETWEEN 10 AND 12 AND slot % 100 = 0)
      ${rows}`);
    // h5 above its limit (6 %) on feeder 4, some of it in flagged slots; h2 on its limit (2 %,
    // inside) and just above it; h3 missing now and then.
    const harmonics = HARMONIC_ORDERS.map((h) =>
      h === 5
        ? `CASE WHEN s BETWEEN 10 AND 12 AND slot % 10 = 0 THEN 9 ELSE 1 END`
        : h === 2
        ? `CASE WHEN slot % 7 = 0 THEN 2.0 WHEN s = 16 AND slot % 40 = 0 THEN 2.01 ELSE 0.2 END`
        : h === 3
        ? `CASE WHEN hash(s, slot, 9) % 150 = 0 THEN NULL ELSE 0.2 END`
        : "0.2"
    );
    await c.run(`INSERT INTO pq_10min (series_id, slot, origin, windows, n_h, n_unbalance,
        unbalance, pst, plt, ${HARMONIC_ORDERS.map((h) => `h${h}`).join(", ")})
      SELECT s, ${time}, 1, 0, 0, 0,
        CASE WHEN s IN (5, 21) OR (s = 20 AND slot % 12 = 0) THEN 2.5
             WHEN s = 20 AND slot % 50 = 1 THEN 2.0 ELSE 0.5 + ${noise(7)} END,
        0.4, CASE WHEN s = 7 AND slot % 36 = 5 THEN 1.2 ELSE 0.3 + 0.5 * ${noise(8)} END,
        ${harmonics.join(", ")}
      ${rows}`);
    const feeder = (ids: (number | undefined)[]) => ({
      phases: ids,
      nominalVoltage: 230,
      nominalFrequency: 50 as const,
    });
    const feeders = [
      feeder([16, 17, 18]),
      feeder([4, 5, 6]),
      feeder([1, 2, 3]),
      feeder([10, 11, 12]),
      feeder([7, 8, 9]),
      feeder([undefined, undefined, undefined]),
      feeder([13, 14, undefined]),
      feeder([undefined, 20, 21]),
    ];
    const expected = (await loadComplianceInputs(c, feeders, new Date(FROM), new Date(TO)))
      .map((input) => evaluateCompliance(input));
    const grid = (batchSize: number, counts = true) =>
      evaluateGridWeek(c, feeders, new Date(FROM), new Date(TO), undefined, { batchSize, counts });
    // Before any rollup the counts are missing: the values are read.
    for (const batchSize of [1, 3, 250]) {
      const result = await grid(batchSize);
      assert.deepEqual(result.results, expected, `batch size ${batchSize}, no counts yet`);
      // Only the feeder without series has nothing to count.
      assert.equal(result.countedFeeders, 1);
    }
    const rollups = new PqRollups(c);
    await rollups.recover(0);
    await rollups.flush();
    for (const batchSize of [1, 3, 250]) {
      for (const counts of [true, false]) {
        const result = await grid(batchSize, counts);
        assert.deepEqual(result.results, expected, `batch size ${batchSize}, counts ${counts}`);
        assert.equal(result.countedFeeders, counts ? feeders.length : 0);
        assert.equal(result.batches, Math.ceil(feeders.length / batchSize));
      }
    }
    // Whole hours but not days: the hourly counts.
    const [from, to] = [new Date(FROM + 3 * 3_600_000), new Date(TO - 5 * 3_600_000)];
    const hours = await evaluateGridWeek(c, feeders, from, to);
    assert.equal(hours.countedFeeders, feeders.length);
    assert.deepEqual(
      hours.results,
      (await loadComplianceInputs(c, feeders, from, to)).map((input) => evaluateCompliance(input)),
    );
    // A day whose rollup is behind its records (rolled up before its last record): read.
    await c.run(
      `DELETE FROM pq_10min WHERE series_id = 11 AND slot = make_timestamp(${
        (FROM + 30 * 600_000) * 1000
      })`,
    );
    const behind = (await loadComplianceInputs(c, feeders, new Date(FROM), new Date(TO)))
      .map((input) => evaluateCompliance(input));
    const late = await grid(3);
    assert.deepEqual(late.results, behind, "rollup behind");
    assert.equal(late.countedFeeders, feeders.length - 1, "only the feeder of series 11 is read");
    // A dip on one phase (series 16 flagged, 17 and 18 not), rolled up: the records of 17 and 18
    // in that slot are in the rollups' counts but out of the engine's: the feeder is read.
    const dip = (FROM + 500 * 600_000) * 1000;
    await c.run(`DELETE FROM agg_10min WHERE series_id = 16 AND slot = make_timestamp(${dip})`);
    await c.run(`INSERT INTO agg_10min (series_id, slot, n, u_rms, flagged)
      VALUES (16, make_timestamp(${dip}), 30, 150, true)`);
    await rollups.markFlagged([dip / 1000]);
    await rollups.flush();
    const oneDip = (await loadComplianceInputs(c, feeders, new Date(FROM), new Date(TO)))
      .map((input) => evaluateCompliance(input));
    const dipped = await grid(250);
    assert.deepEqual(dipped.results, oneDip, "one phase flagged");
    assert.equal(dipped.countedFeeders, feeders.length - 2, "series 11's and 16's feeders read");
    // Rollups of the release before the unbalance counts (the columns added, NULL): read, until
    // the recovery at start rolls their hours up again.
    for (const table of ["pq_1h", "pq_1d"]) {
      await c.run(
        `UPDATE ${table} SET unbalance_n = NULL, unbalance_over = NULL WHERE series_id = 1`,
      );
    }
    const upgraded = await grid(250);
    assert.deepEqual(upgraded.results, oneDip, "rollups without unbalance counts");
    assert.equal(upgraded.countedFeeders, feeders.length - 3, "and series 1's feeder read");
    await rollups.recover(0);
    await rollups.flush();
    const recovered = await grid(250);
    assert.deepEqual(recovered.results, oneDip, "recovered");
    assert.equal(recovered.countedFeeders, feeders.length - 1, "only the dip's feeder read");
    const h2 = expected[0]!.parameters.find((p) => p.parameter === "h2")!;
    assert.ok(h2.n1 > 0 && h2.passed, "h2 above its limit in a few slots, on it in many");
    assert.equal(expected[1]!.parameters[0]!.passed, false, "feeder 2: voltage fails");
    assert.equal(expected[3]!.parameters.find((p) => p.parameter === "h5")!.passed, false);
    assert.equal(expected[2]!.passed, true);
    assert.equal(expected[5]!.passed, null, "no series: not evaluable");
    const flicker = expected[4]!.parameters.find((p) => p.parameter === "flicker")!;
    assert.deepEqual([flicker.worstPhase, flicker.passed], ["L1", false], "Plt of series 7");
    const unbalance = (k: number) =>
      expected[k]!.parameters.find((p) => p.parameter === "unbalance")!;
    assert.equal(unbalance(7).passed, false, "feeder 8: unbalance of its L2 above 2 % in 1 of 12");
    assert.equal(unbalance(1).passed, true, "feeder 2: its L2's high unbalance is not its own");
  } finally {
    c.closeSync();
    instance.closeSync();
    await releaseNativeHandles();
  }
});
