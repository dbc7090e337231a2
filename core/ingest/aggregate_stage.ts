/**
 * The write of a 10-minute close from running sums: one transaction on the aggregator's
 * connection, the sums finalised into columns and appended to `agg_10min` in slices, yielding to
 * the event loop between them, and the commit on DuckDB's threads. Also the timings of those
 * parts, for the benchmarks.
 */
import type { DuckDBAppender, DuckDBConnection } from "@duckdb/node-api";
import { appendColumns, type Column } from "./chunk_writer.ts";

/** Where the close from running sums spends its time (ms). */
export interface ClosePartTimings {
  /** The event-flag lookup (a query: DuckDB's threads). */
  flagsMs: number;
  /** The sums finalised into columns (event loop, in slices). */
  columnsMs: number;
  /** Their appends to agg_10min (event loop, in slices). */
  stageMs: number;
  /** The DELETE of rows replaced and the commit (DuckDB's threads). */
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

/** Rows appended between two yields to the event loop. */
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
 * Writes the rows of every piece (in table order) into `agg_10min` in one transaction: first
 * `before` (the DELETE of the rows they replace), then the appends (`appendSlices`), then the
 * commit, on DuckDB's threads. The table has no index for the appends to update on the event
 * loop (schema.ts SLOT_TABLES). Adds the time of each part to `parts`.
 */
export async function writeSlices(
  connection: DuckDBConnection,
  pieces: readonly StagePiece[],
  parts: ClosePartTimings,
  before: readonly string[] = [],
): Promise<void> {
  let mark = performance.now();
  await connection.run("BEGIN TRANSACTION");
  try {
    for (const statement of before) await connection.run(statement);
    parts.writeMs += performance.now() - mark;
    await appendSlices(await connection.createAppender("agg_10min"), pieces, parts);
    mark = performance.now();
    await connection.run("COMMIT");
    parts.writeMs += performance.now() - mark;
  } catch (error) {
    await connection.run("ROLLBACK").catch(() => undefined);
    throw error;
  }
}

/**
 * Appends the rows of every piece (in table order) in slices of at most STAGE_ROWS rows,
 * flushing and yielding to the event loop once every STAGE_ROWS rows, then closes `appender`;
 * adds the event-loop time to `parts` (columnsMs for `slice`, stageMs for the appends; loopMs,
 * longestMs). Many small pieces (the slots of a backlog) share one appender.
 */
export async function appendSlices(
  appender: DuckDBAppender,
  pieces: readonly StagePiece[],
  parts: ClosePartTimings,
): Promise<void> {
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
