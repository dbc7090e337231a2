import assert from "node:assert/strict";
import { DuckDBInstance } from "@duckdb/node-api";
import { Aggregator } from "../ingest/aggregate.ts";
import { MeasurementStore, SLOT_MS } from "../ingest/store.ts";
import type { MeasurementRow } from "../ingest/validate.ts";
import { loadComplianceInput, loadComplianceInputs, nodeCompliance } from "./load.ts";
import { releaseNativeHandles } from "../time_series_store.ts";

const FROM = Date.parse("2026-11-16T00:00:00Z");

function row(ts: number, phase: number, u: number): MeasurementRow {
  const values = {
    p: NaN,
    q: NaN,
    pf: NaN,
    thd_u: 2,
    thd_i: NaN,
    f: 50.01,
  };
  // Protocol v1: the PQ values of every 20-s value, folded into the slot's PQ record.
  const pq = { unbalance: 0.5, pst: NaN, plt: 0.4, h: new Float32Array(24).fill(0.2) };
  return { ts, feeder: 1, phase, u, i: 20, values, pq };
}

Deno.test("nodeCompliance() evaluates stored aggregates: a low slot counts in N1, an empty slot as missing", async () => {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    const store = await MeasurementStore.open(connection);
    const agg = new Aggregator(connection);
    store.onSlotsTouched((s) => agg.markDirty(s));
    const rows: MeasurementRow[] = [];
    // Six slots of an hour: slot 2 sags to 200 V on L1, slot 4 has no data at all.
    for (let slot = 0; slot < 6; slot++) {
      if (slot === 4) continue;
      for (let k = 0; k < 30; k++) {
        const ts = FROM + slot * SLOT_MS + k * 20_000;
        for (let phase = 0; phase < 3; phase++) {
          rows.push(row(ts, phase, slot === 2 && phase === 0 ? 200 : 231));
        }
      }
    }
    await store.append("C1", { measurements: rows });
    await store.writeFolds(FROM + 8 * SLOT_MS);
    await agg.flush(FROM + 8 * SLOT_MS);
    const ids = [0, 1, 2].map((p) => store.seriesId("C1", 1, p));
    const result = await nodeCompliance(
      connection,
      { phases: ids, nominalVoltage: 230, nominalFrequency: 50 },
      new Date(FROM),
      new Date(FROM + 6 * SLOT_MS),
    );
    const voltage = result.parameters.find((p) => p.parameter === "voltage")!;
    assert.equal(voltage.worstPhase, "L1");
    assert.deepEqual([voltage.n, voltage.n1, voltage.missing, voltage.flagged], [5, 1, 1, 0]);
    assert.equal(voltage.passed, false, "1 of 5 slots outside +/-10 % is more than 5 %");
    const thd = result.parameters.find((p) => p.parameter === "thd")!;
    assert.equal(thd.passed, true);
    // Harmonics, flicker and unbalance come from the folded PQ records.
    const h5 = result.parameters.find((p) => p.parameter === "h5")!;
    assert.deepEqual([h5.n, h5.missing, h5.passed], [5, 1, true]);
    const flicker = result.parameters.find((p) => p.parameter === "flicker")!;
    assert.equal(flicker.n, 1, "one 2-h Plt block");
    const unbalance = result.parameters.find((p) => p.parameter === "unbalance")!;
    assert.deepEqual([unbalance.n, unbalance.passed], [5, true]);
  } finally {
    connection.closeSync();
    instance.closeSync();
    await releaseNativeHandles();
  }
});

Deno.test("loadComplianceInputs() reads a week of several nodes in one query, NULLs and gaps as missing", async () => {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    await MeasurementStore.open(connection); // creates the tables
    const week = 7 * 144;
    // Series 1..6: node A phases 1..3, node B phases 4..6. Every 97th slot has no row, every
    // 50th a NULL THD; u carries the series and the slot so that any mix-up shows.
    await connection.run(`INSERT INTO agg_10min (series_id, slot, n, u_rms, thd_u, f_min,
        f_max, flagged)
      SELECT s, make_timestamp((${FROM} + k * ${SLOT_MS}) * 1000), 30, 200 + s + (k % 20) / 4,
        CASE WHEN k % 50 = 0 THEN NULL ELSE 1.5 END, 49.9, 50.1, k % 300 = 1
      FROM range(1, 7) a(s), range(${week}) b(k) WHERE k % 97 <> 5`);
    // PQ records: every 89th slot has none.
    await connection.run(`INSERT INTO pq_10min (series_id, slot, origin, windows, n_h,
        n_unbalance, plt, unbalance, h5)
      SELECT s, make_timestamp((${FROM} + k * ${SLOT_MS}) * 1000), 1, 0, 0, 0, 0.3, 0.4, 2.5
      FROM range(1, 7) a(s), range(${week}) b(k) WHERE k % 89 <> 7`);
    const node = (first: number) => ({
      phases: [first, first + 1, first + 2],
      nominalVoltage: 230,
      nominalFrequency: 50 as const,
    });
    const from = new Date(FROM);
    const to = new Date(FROM + week * SLOT_MS);
    const [a, b] = await loadComplianceInputs(connection, [node(1), node(4)], from, to);
    assert.deepEqual(a, await loadComplianceInput(connection, node(1), from, to));
    for (const k of [0, 1, 5, 7, 50, 89 + 7, 97 + 5, 301, 1000, week - 1]) {
      const missing = k % 97 === 5;
      assert.equal(b!.u[2]![k], missing ? NaN : Math.fround(206 + (k % 20) / 4), `u at ${k}`);
      assert.equal(b!.thd[0]![k], missing || k % 50 === 0 ? NaN : 1.5, `thd at ${k}`);
      assert.equal(b!.h[3]![1]![k], k % 89 === 7 ? NaN : 2.5, `h5 at ${k}`);
      assert.equal(b!.unbalance[k], k % 89 === 7 ? NaN : Math.fround(0.4), `unbalance at ${k}`);
      assert.equal(b!.flagged[k], !missing && k % 300 === 1 ? 1 : 0, `flag at ${k}`);
    }
    assert.equal(b!.h[0]![0]![0], NaN, "h2 never stored");
  } finally {
    connection.closeSync();
    instance.closeSync();
    await releaseNativeHandles();
  }
});
