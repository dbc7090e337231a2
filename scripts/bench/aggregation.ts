/**
 * The 10-minute window close: N cells x 6 feeders x 4 probes written through
 * `MeasurementStore.append` (one batch of 30 windows per cell, awaited one by one), then
 * `Aggregator.flush` of that one closed slot: the incremental close from the running sums, the
 * rollups it refreshes, and the SQL recomputation of the slot (the fallback) for comparison, in
 * a file-backed database opened exactly as the platform opens it.
 */
import {
  Aggregator,
  MeasurementStore,
  openTimeSeriesStore,
  RECLOSE_MS,
  SLOT_GRACE_MS,
  SLOT_MS,
} from "../../core/mod.ts";
import type { DuckDBConnection } from "@duckdb/node-api";
import { DDL, dropTemp, inTransaction } from "../../core/ingest/schema.ts";
import {
  appendSlices,
  noParts,
  sliceColumns,
  writeSlices,
} from "../../core/ingest/aggregate_stage.ts";
import type { Column } from "../../core/ingest/chunk_writer.ts";
import { AGG_FLOAT_COLUMNS } from "../../core/ingest/slot_accumulator.ts";
import { allocateColumns, generateColumns, WINDOW_MS } from "../../core/simulator/mod.ts";
import { platformMemoryLimit } from "./lib/duck.ts";
import type { Sizes } from "./lib/options.ts";
import type { Result } from "./lib/report.ts";
import { perSecond, summarize } from "./lib/stats.ts";
import { timeOnce, timeRepeated } from "./lib/timing.ts";
import { FIXED_START, lvgridCell, rowsByCell, SEED } from "./lib/workload.ts";

const WINDOWS = SLOT_MS / WINDOW_MS;
const CHUNK_CELLS = 250;
/** Bytes of one raw row as stored: series id, timestamp and 35 FLOAT values. */
export const RAW_ROW_BYTES = 4 + 8 + 35 * 4;

/** Writes one slot of `cells` cells; returns the rows written and the time the appends took. */
async function writeSlot(store: MeasurementStore, cells: number, slot: number) {
  const cols = allocateColumns(CHUNK_CELLS * 24 * WINDOWS);
  let rows = 0;
  let ms = 0;
  for (let first = 0; first < cells; first += CHUNK_CELLS) {
    const chunk = Array.from(
      { length: Math.min(CHUNK_CELLS, cells - first) },
      (_, k) => lvgridCell(first + k),
    );
    let count = 0;
    for (let w = 0; w < WINDOWS; w++) {
      count += generateColumns(chunk, slot + w * WINDOW_MS, SEED, cols, count);
    }
    for (const [index, measurements] of rowsByCell(cols, count)) {
      ms += await timeOnce(() => store.append(chunk[index]!.cellId, { measurements }));
      rows += measurements.length;
    }
  }
  return { rows, ms };
}

/**
 * Registers the cells' series as earlier batches would have (the store loads them when it
 * opens), so that the appends measure the steady state, not each cell's first contact.
 */
async function registerSeries(connection: DuckDBConnection, cells: number): Promise<void> {
  for (const statement of DDL) await connection.run(statement);
  await connection.run(`INSERT INTO series
    SELECT c * 24 + f * 4 + p + 1, 'cell-' || c, f + 1, p
    FROM range(${cells}) a(c), range(6) b(f), range(4) d(p)`);
}

/**
 * Stores `days` days of 10-minute aggregates (and their hours) of every series before `slot`, as
 * a running platform has them: the close writes into tables of that size. Returns the rows.
 */
async function storeHistory(c: DuckDBConnection, cells: number, slot: number, days: number) {
  const series = cells * 24;
  const rows = (table: string, step: number, from: number, to: number) =>
    c.run(`INSERT INTO ${table}
      SELECT (k % ${series} + 1)::INTEGER, make_timestamp((${slot} - (k // ${series} + 1) * ${step})
          * 1000), 30, 230 + k % 7, 228, 232, 10, 9, 11, 2, 0.5, 0.97, 2, 5, 50, 49.98, 50.02, false
      FROM range(${from * series}, ${to * series}) r(k)`);
  // One day per statement, newest first.
  for (let day = 0; day < days; day++) await rows("agg_10min", SLOT_MS, day * 144, (day + 1) * 144);
  await rows("agg_1h", 3_600_000, 0, days * 24);
  return days * 144 * series;
}

/**
 * Same-run A/B of the close's write on the slot's rows as written (read back, untimed): in
 * slices straight into agg_10min in one transaction (`writeSlices`, now) against the slices
 * staged in a temporary table and copied by an INSERT (before the slot tables lost their key),
 * alternating, five each; each must leave the same rows. Returns the event-loop time and the
 * wall time of each, p50.
 */
async function compareWritePaths(connection: DuckDBConnection, slot: number) {
  const from = `make_timestamp(${slot * 1000})`;
  const rows = (await connection.runAndReadAll(
    `SELECT series_id, n, * EXCLUDE (series_id, slot, n, flagged), flagged::UTINYINT
     FROM agg_10min WHERE slot = ${from} ORDER BY series_id`,
  )).getRows() as (number | null)[][];
  const count = rows.length;
  const floats = Array.from(
    { length: AGG_FLOAT_COLUMNS },
    (_, c) => Float32Array.from(rows, (r) => r[2 + c] ?? NaN),
  );
  const columns: Column[] = [
    { type: "integer", data: Int32Array.from(rows, (r) => r[0]!) },
    { type: "timestamp", data: new Float64Array(count).fill(slot) },
    { type: "usmallint", data: Uint16Array.from(rows, (r) => r[1]!) },
    ...floats.map((data) => ({ type: "float" as const, data })),
    { type: "boolean", data: Uint8Array.from(rows, (r) => r.at(-1)!) },
  ];
  const checksum = async () =>
    String(
      (await connection.runAndReadAll(
        `SELECT sum(hash(a)) FROM agg_10min a WHERE slot = ${from}`,
      )).getRows()[0]![0],
    );
  const expected = await checksum();
  const pieces = [{ count, slice: (from: number, to: number) => sliceColumns(columns, from, to) }];
  const direct: number[] = [];
  const longest: number[] = [];
  const staged: number[] = [];
  const directWall: number[] = [];
  const stagedWall: number[] = [];
  for (let round = 0; round < 5; round++) {
    await connection.run(`DELETE FROM agg_10min WHERE slot = ${from}`);
    let parts = noParts();
    let started = performance.now();
    await writeSlices(connection, pieces, parts);
    directWall.push(performance.now() - started);
    direct.push(parts.stageMs);
    longest.push(parts.longestMs);
    if (await checksum() !== expected) throw new Error("The write in slices changed the rows");
    await connection.run(`DELETE FROM agg_10min WHERE slot = ${from}`);
    parts = noParts();
    started = performance.now();
    await connection.run("CREATE OR REPLACE TEMP TABLE agg_stage AS FROM agg_10min LIMIT 0");
    await appendSlices(await connection.createAppender("agg_stage", "main", "temp"), pieces, parts);
    await inTransaction(connection, ["INSERT INTO agg_10min SELECT * FROM agg_stage"]);
    await dropTemp(connection, "agg_stage");
    stagedWall.push(performance.now() - started);
    staged.push(parts.stageMs);
    if (await checksum() !== expected) throw new Error("The staged write changed the rows");
  }
  const p50 = (values: number[]) => summarize(values).p50;
  return {
    direct: p50(direct),
    directLongest: p50(longest),
    staged: p50(staged),
    directWall: p50(directWall),
    stagedWall: p50(stagedWall),
  };
}

/** Loads the slot, then times its first close and three re-aggregations. */
export async function benchAggregation(dir: string, sizes: Sizes): Promise<Result[]> {
  const ts = await openTimeSeriesStore(`${dir}/aggregation`, platformMemoryLimit());
  try {
    await registerSeries(ts.connection, sizes.aggregationCells);
    const store = await MeasurementStore.open(ts.writer);
    const aggregator = new Aggregator(ts.connection);
    store.onSlotsTouched((slots) => aggregator.markDirty(slots));
    const slot = FIXED_START + 10 * 3_600_000; // 10:00 UTC, daytime load
    const cells = sizes.aggregationCells;
    const days = sizes.aggregationHistoryDays;
    const historyStarted = performance.now();
    const history = await storeHistory(ts.connection, cells, slot, days);
    if (days) {
      console.log(
        `  aggregation: ${days} days of history, ${history} rows of agg_10min in ${
          ((performance.now() - historyStarted) / 1000).toFixed(1)
        } s`,
      );
    }
    const written = await writeSlot(store, cells, slot);
    const closeAt = slot + SLOT_MS + SLOT_GRACE_MS;
    const first = await timeOnce(() => aggregator.flush(closeAt));
    const { closeMs, rollupMs, parts } = aggregator.lastFlush;
    const rss = Deno.memoryUsage();
    const paths = await compareWritePaths(ts.connection, slot);
    // Each recomputation a minute after the previous close: a large re-close waits that long.
    let at = closeAt;
    const again = await timeRepeated(async () => {
      aggregator.markDirty([slot]);
      at += RECLOSE_MS;
      if (await aggregator.flush(at) !== 1) throw new Error("The recomputation wrote no slot");
    }, { warmup: 0, repeats: 3 });
    const aggregates = await ts.connection.runAndReadAll(
      `SELECT count(*) FILTER (slot = make_timestamp(${slot * 1000})), count(*) FROM agg_10min`,
    );
    const [series, all] = aggregates.getRows()[0]!.map(Number) as [number, number];
    if (series !== cells * 24 || all !== history + series) {
      throw new Error(
        `Cannot trust the aggregation: ${series} aggregates for ${
          cells * 24
        } series, ${all} in all`,
      );
    }
    const appendRate = perSecond(written.rows, written.ms);
    const bytes = written.rows * RAW_ROW_BYTES;
    console.log(
      `  aggregation: ${written.rows} rows in ${(written.ms / 1000).toFixed(1)} s of appends; ` +
        `flush ${first.toFixed(0)} ms (incremental close ${closeMs.toFixed(0)} ms, rollups ${
          rollupMs.toFixed(0)
        } ms: event flags ${parts?.flagsMs.toFixed(0)} ms, sums to columns ${
          parts?.columnsMs.toFixed(0)
        } ms, appends ${parts?.stageMs.toFixed(0)} ms, delete and commit ${
          parts?.writeMs.toFixed(0)
        } ms; on the event loop ${parts?.loopMs.toFixed(0)} ms, longest piece ${
          parts?.longestMs.toFixed(0)
        } ms); write paths on the same rows, p50 of event loop / wall: in slices into agg_10min ${
          paths.direct.toFixed(0)
        } / ${paths.directWall.toFixed(0)} ms (longest piece ${
          paths.directLongest.toFixed(0)
        } ms), former staging and INSERT ${paths.staged.toFixed(0)} / ${
          paths.stagedWall.toFixed(0)
        } ms; SQL recomputation of the slot p50 ${
          summarize(again).p50.toFixed(0)
        } ms; after the close RSS ${(rss.rss / 2 ** 20).toFixed(0)} MB, V8 heap ${
          (rss.heapUsed / 2 ** 20).toFixed(0)
        } MB`,
    );
    return [
      {
        name: `MeasurementStore.append, 30 windows/batch, ${cells} known cells (no HTTP)`,
        value: appendRate,
        unit: "rows/s",
        basis: { kind: "engine", rowsPerSec: appendRate },
      },
      {
        name: `10-minute close from running sums, ${cells} cells, ${
          written.rows / 1e6
        }M rows, ${days} days stored`,
        value: closeMs,
        unit: "ms",
        key: "aggregation.close",
        rows: written.rows,
        basis: { kind: "bandwidth", bytesPerSec: perSecond(bytes, closeMs) },
        // The bar is for 5,000 cells: scale linearly with the series written.
        target: {
          text: "<= 100 ms at 5,000 cells",
          met: (value) => value * (5_000 / cells) <= 100,
        },
        scaled: cells !== 5_000,
      },
      {
        name: `  of which on the event loop (sums to columns, appends in slices)`,
        value: parts?.loopMs ?? NaN,
        unit: "ms",
        key: "aggregation.loop",
        target: {
          text: "<= 100 ms at 5,000 cells",
          met: (value) => value * (5_000 / cells) <= 100,
        },
        scaled: cells !== 5_000,
      },
      {
        name: `  longest single piece on the event loop`,
        value: parts?.longestMs ?? NaN,
        unit: "ms",
      },
      {
        name:
          `  write of the same rows, event loop, p50: in slices into agg_10min (now) / staged (before)`,
        value: paths.direct / paths.staged,
        unit: "x",
      },
      {
        name: `  the same, wall time: now / before`,
        value: paths.directWall / paths.stagedWall,
        unit: "x",
      },
      {
        name: `  hourly and daily rollups refreshed by that close`,
        value: rollupMs,
        unit: "ms",
      },
      {
        name: `  SQL recomputation of the slot (fallback), p50`,
        value: summarize(again).p50,
        unit: "ms",
        key: "aggregation.sql",
        rows: written.rows,
        basis: { kind: "bandwidth", bytesPerSec: perSecond(bytes, summarize(again).p50) },
      },
    ];
  } finally {
    await ts.close();
  }
}
