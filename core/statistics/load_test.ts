import assert from "node:assert/strict";
import { DuckDBInstance } from "@duckdb/node-api";
import { DDL } from "../ingest/schema.ts";
import { releaseNativeHandles } from "../time_series_store.ts";
import { loadSlots, slotSql } from "./load.ts";
import { slotGrid } from "./period.ts";

const FROM = Date.parse("2026-03-01T00:00:00Z");
const HOUR = 3_600_000;
const stamp = (ms: number) => `make_timestamp(${ms * 1000})`;

Deno.test("loadSlots() lays rows on the grid; slots without a row and NULL values stay gaps", async () => {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    for (const statement of DDL) await connection.run(statement);
    // Series 7: hours 0, 1 and 3 (hour 2 missing, hour 3 without a current); series 8: hour 1;
    // series 9 (not asked for) and a row after the period are never read.
    await connection.run(`INSERT INTO agg_1h (series_id, slot, n, u_rms, u_min, i_rms, flagged)
      VALUES (7, ${stamp(FROM)}, 180, 230.25, 228, 12.5, false),
             (7, ${stamp(FROM + HOUR)}, 180, 231.5, 229, 13, false),
             (7, ${stamp(FROM + 3 * HOUR)}, 180, 229.75, 227, NULL, false),
             (8, ${stamp(FROM + HOUR)}, 180, 232, 230, 14, false),
             (9, ${stamp(FROM)}, 180, 999, 999, 999, false),
             (7, ${stamp(FROM + 4 * HOUR)}, 180, 999, 999, 999, false)`);
    const grid = slotGrid(FROM + 1, FROM + 4 * HOUR, HOUR);
    const data = await loadSlots(connection, {
      resolution: "1h",
      grid,
      seriesIds: [7, 8, 10],
      columns: ["u_rms", "i_rms"],
    });
    const N = NaN;
    assert.deepEqual([...data.get(7)![0]!], [230.25, 231.5, N, 229.75]);
    assert.deepEqual([...data.get(7)![1]!], [12.5, 13, N, N]);
    assert.deepEqual([...data.get(8)![0]!], [N, 232, N, N]);
    assert.deepEqual([...data.get(10)![0]!], [N, N, N, N], "a series without rows");
    assert.equal(data.has(9), false);
  } finally {
    connection.closeSync();
    instance.closeSync();
    await releaseNativeHandles();
  }
});

Deno.test("slotSql() reads one level's table and refuses columns outside the parameter table", () => {
  const query = {
    resolution: "20s" as const,
    grid: slotGrid(FROM, FROM + HOUR, 20_000),
    seriesIds: [1, 2],
    columns: ["u"],
  };
  const sql = slotSql(query);
  assert.match(sql, /FROM raw_measurements a JOIN \(SELECT unnest\(\[1,2\]\)/);
  assert.match(sql, /epoch_ms\(a\.ts\)/);
  assert.throws(() => slotSql({ ...query, columns: ["u; DROP TABLE series"] }));
  assert.throws(() => slotSql({ ...query, seriesIds: [] }));
});
