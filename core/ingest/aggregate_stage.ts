/**
 * The write of a 10-minute close from running sums: the columns are appended to a temporary
 * staging table in slices, yielding to the event loop between them, and reach `agg_10min` in
 * SQL, on DuckDB's threads (the primary key's index is updated there, not on the event loop).
 * Also the timings of those parts, for the benchmarks.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { appendColumns, type Column } from "./chunk_writer.ts";

/** Where the close from running sums spends its time (ms). */
export interface ClosePartTimings {
  /** The event-flag lookup (a query: DuckDB's threads). */
  flagsMs: number;
  /** The sums finalised into columns (event loop, in slices). */
  columnsMs: number;
  /** Their appends to the staging table (event loop, in slices). */
  stageMs: number;
  /** DELETE + INSERT from the staging table and the commit (DuckDB's threads). */
  writeMs: number;
  /** Time on the event loop: columnsMs + stageMs. */
  loopMs: number;
  /** The longest single piece of it: how long a request could wait behind the close. */
  longestMs: number;
}

export const noParts = (): ClosePartTimings => ({
  flagsMs: 0,
  columnsMs: 0,
  stageMs: 0,
  writeMs: 0,
  loopMs: 0,
  longestMs: 0,
});

/** Rows appended to the staging table between two yields to the event loop. */
export const STAGE_ROWS = 16_384;

/** Rows `from` to `to` of every column (views, no copy). */
export function sliceColumns(columns: readonly Column[], from: number, to: number): Column[] {
  return columns.map((column) => ({ ...column, data: column.data.subarray(from, to) }) as Column);
}

/** Rows of agg_10min's columns to stage: `slice(from, to)` makes rows `from` to `to` of `count`. */
export interface StagePiece {
  count: number;
  slice: (from: number, to: number) => Column[];
}

/**
 * Appends the rows of every piece (in table order) to a new temporary table `agg_stage`
 * in slices of at most STAGE_ROWS rows, yielding to the event loop once every STAGE_ROWS rows;
 * adds the event-loop time to `parts` (columnsMs for `slice`, stageMs for the appends; loopMs,
 * longestMs). Many small pieces (the slots of a backlog) share one appender.
 */
export async function stageColumns(
  connection: DuckDBConnection,
  pieces: readonly StagePiece[],
  parts: ClosePartTimings,
): Promise<void> {
  // Every time, a new one (dropTemp).
  await connection.run("CREATE OR REPLACE TEMP TABLE agg_stage AS SELECT * FROM agg_10min LIMIT 0");
  const appender = await connection.createAppender("agg_stage", "main", "temp");
  // The first error is reported: after a failed append, the appender's close may fail too.
  const errors: unknown[] = [];
  let sinceYield = 0;
  let piece = performance.now();
  const endPiece = () => {
    const ms = performance.now() - piece;
    onLoop(parts, ms);
    piece = performance.now();
  };
  try {
    for (const { count, slice } of pieces) {
      for (let from = 0; from < count; from += STAGE_ROWS) {
        if (sinceYield >= STAGE_ROWS) {
          const flushing = performance.now();
          appender.flushSync();
          parts.stageMs += performance.now() - flushing;
          endPiece();
          await new Promise((resolve) => setTimeout(resolve, 0));
          piece = performance.now();
          sinceYield = 0;
        }
        const started = performance.now();
        const to = Math.min(count, from + STAGE_ROWS);
        const columns = slice(from, to);
        const made = performance.now();
        appendColumns(appender, columns, to - from);
        parts.columnsMs += made - started;
        parts.stageMs += performance.now() - made;
        sinceYield += to - from;
      }
    }
  } catch (error) {
    errors.push(error);
  }
  const started = performance.now();
  try {
    appender.closeSync();
  } catch (error) {
    errors.push(error);
  }
  parts.stageMs += performance.now() - started;
  endPiece();
  if (errors.length) throw errors[0];
}

/** Notes `ms` spent on the event loop in one piece. */
export function onLoop(parts: ClosePartTimings, ms: number): void {
  parts.loopMs += ms;
  parts.longestMs = Math.max(parts.longestMs, ms);
}
