import assert from "node:assert/strict";
import { DuckDBInstance } from "@duckdb/node-api";
import { MeasurementStore } from "../ingest/store.ts";
import type { MeasurementRow } from "../ingest/validate.ts";
import { readRawValues } from "./custom_values.ts";
import { releaseNativeHandles } from "../time_series_store.ts";

const T0 = Date.parse("2026-11-22T10:00:00Z");

function row(ts: number, phase: number, u: number, i: number): MeasurementRow {
  const values = {
    p: NaN,
    q: NaN,
    pf: NaN,
    thd_u: NaN,
    thd_i: NaN,
    f: 50,
  };
  return { ts, feeder: 1, phase, u, i, values, pq: null };
}

Deno.test("readRawValues() returns each series' values of [from, to) in time order", async () => {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    const store = await MeasurementStore.open(connection);
    const rows = [0, 1, 2, 3].flatMap((k) => [
      row(T0 + k * 20_000, 0, 230 + k, 10 * k),
      row(T0 + k * 20_000, 1, 231, 5),
    ]);
    await store.append("C1", { measurements: rows.reverse() });
    const l1 = store.seriesId("C1", 1, 0)!;
    const l2 = store.seriesId("C1", 1, 1)!;
    const values = await readRawValues(connection, [l1, l2, 999], T0 + 20_000, T0 + 60_000);
    assert.deepEqual(values.get(l1), {
      ts: [T0 + 20_000, T0 + 40_000],
      u: [231, 232],
      i: [10, 20],
    });
    assert.equal(values.get(l2)!.ts.length, 2);
    assert.equal(values.has(999), false);
    assert.equal((await readRawValues(connection, [], T0, T0 + 1)).size, 0);
  } finally {
    connection.closeSync();
    instance.closeSync();
    await releaseNativeHandles();
  }
});
