import assert from "node:assert/strict";
import { DuckDBInstance } from "@duckdb/node-api";
import { Aggregator } from "./aggregate.ts";
import { pruneRaw } from "./retention.ts";
import { MeasurementStore } from "./store.ts";
import { releaseNativeHandles } from "../time_series_store.ts";

const DAY = 86_400_000;
const NOW = Date.parse("2026-11-22T00:00:00Z");

Deno.test("pruneRaw() deletes raw values older than the lifetime and keeps their aggregates", async () => {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    const store = await MeasurementStore.open(connection);
    const agg = new Aggregator(connection);
    store.onSlotsTouched((s) => agg.markDirty(s));
    const values = {
      p: NaN,
      q: NaN,
      pf: NaN,
      thd_u: NaN,
      thd_i: NaN,
      f: NaN,
    };
    const row = (ts: number) => ({ ts, feeder: 1, phase: 0, u: 230, i: 5, values, pq: null });
    await store.append("C1", { measurements: [row(NOW - 31 * DAY), row(NOW - 29 * DAY)] });
    await agg.flush(NOW);
    assert.equal(await pruneRaw(connection, 30, NOW), 1);
    const left = (await connection.runAndReadAll("SELECT count(*)::INT FROM raw_measurements"))
      .getRows();
    assert.deepEqual(left, [[1]]);
    const aggregates = (await connection.runAndReadAll("SELECT count(*)::INT FROM agg_10min"))
      .getRows();
    assert.deepEqual(aggregates, [[2]], "the 10-minute history outlives the raw values");
  } finally {
    connection.closeSync();
    instance.closeSync();
    await releaseNativeHandles();
  }
});
