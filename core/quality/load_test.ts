import assert from "node:assert/strict";
import { DuckDBInstance } from "@duckdb/node-api";
import { Aggregator } from "../ingest/aggregate.ts";
import { MeasurementStore, SLOT_MS } from "../ingest/store.ts";
import type { MeasurementRow } from "../ingest/validate.ts";
import { nodeCompliance } from "./load.ts";

const FROM = Date.parse("2026-11-16T00:00:00Z");

function row(ts: number, phase: number, u: number): MeasurementRow {
  const values = {
    p: NaN,
    q: NaN,
    pf: NaN,
    thd_u: 2,
    thd_i: NaN,
    f: 50.01,
    unbalance: 0.5,
    pst: NaN,
    plt: 0.4,
  };
  return { ts, feeder: 1, phase, u, i: 20, values, h: new Float32Array(24).fill(0.2) };
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
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
});
