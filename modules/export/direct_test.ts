import assert from "node:assert/strict";
import { DuckDBInstance } from "@duckdb/node-api";
import { releaseNativeHandles } from "../../core/mod.ts";
import { directApplies, localTime } from "./direct.ts";
import type { WriteJob } from "./writer.ts";

const job = (over: Partial<WriteJob>): WriteJob => ({
  key: "k",
  baseName: "GDE_x",
  from: 0,
  to: 1,
  interval: "20s",
  parameters: ["u", "i"],
  format: "parquet",
  layout: "long",
  structure: "flat",
  timezone: "UTC",
  separator: ",",
  decimalMark: ".",
  ...over,
});

Deno.test("the direct path takes long layouts of measured values only", () => {
  assert.deepEqual(directApplies(job({})), true);
  assert.deepEqual(directApplies(job({ layout: "wide" })), false);
  assert.deepEqual(directApplies(job({ parameters: ["u", "pst"], interval: "10min" })), false);
  assert.deepEqual(directApplies(job({ staged: true })), false);
});

Deno.test("local time from the zone's offsets equals DuckDB's own conversion, DST included", async () => {
  const instance = await DuckDBInstance.create(":memory:");
  const c = await instance.connect();
  try {
    for (
      const [zone, from, to] of [
        ["Europe/Zurich", Date.UTC(2026, 2, 28), Date.UTC(2026, 2, 31)],
        ["Europe/Zurich", Date.UTC(2026, 9, 24), Date.UTC(2026, 9, 27)],
        ["Europe/Kyiv", Date.UTC(2026, 0, 1), Date.UTC(2027, 0, 1)],
        ["Asia/Kolkata", Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 3)],
        ["UTC", Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 3)],
      ] as const
    ) {
      const expr = localTime(from, to, zone);
      // Every 20-s slot of the period (a year: every 10 minutes), both ways.
      const step = to - from > 10 * 86_400_000 ? 600_000 : 20_000;
      const [differ, n] = (await c.runAndReadAll(`SELECT
          count(*) FILTER (make_timestamp(us + ${expr})
            <> timezone('${zone}', timezone('UTC', make_timestamp(us))))::DOUBLE,
          count(*)::DOUBLE
        FROM (SELECT (${from} + k * ${step})::BIGINT * 1000 AS us
          FROM range(${(to - from) / step}) r(k))`)).getRows()[0] as [number, number];
      assert.deepEqual([zone, differ], [zone, 0], `${n} slots`);
    }
  } finally {
    // Results are collected while their instance lives (freed after it, they corrupt the heap).
    await releaseNativeHandles();
    c.closeSync();
    instance.closeSync();
  }
});
