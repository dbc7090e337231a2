/**
 * The harmonics of a grid-wide week from the counts the PQ rollups keep as the slots close
 * (core/ingest/pq_rollup.ts: per order the values present and those above the EN 50160 limit
 * over the records of unflagged slots, and the records of flagged slots) instead of 24 values per
 * 10-minute record: per series, the sums over the period's days (or hours). The sums must stand
 * for the very records the load streamed, with the very slots it found flagged: the records and
 * the records at flagged slots are compared per series, and where a period is not rolled up yet,
 * has no counts (a rollup of an earlier release) or was rolled up before its slot's flag, the
 * caller reads that feeder's values instead.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { COUNTED_HARMONICS } from "../ingest/pq_rollup.ts";
import { COUNT_COLUMNS, HARMONIC_ORDERS } from "../ingest/schema.ts";
import type { LimitSet } from "../en50160/mod.ts";
import { column, PHASES, type Router, streamChunks } from "./grid_chunks.ts";

const ORDERS = HARMONIC_ORDERS.length;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** A batch's counts: per feeder `[(feeder * ORDERS + order) * 3 + phase]`. */
export interface CountTarget {
  valid: Int32Array;
  above: Int32Array;
  /** Records the load streamed per feeder and phase `[feeder * 3 + phase]`... */
  records: Int32Array;
  /** ...and those of them in the feeder's flagged slots. */
  flaggedRecords: Int32Array;
}

/** A PQ rollup whose counts the period can be summed from (whole days or hours). */
export type CountsTable = "pq_1d" | "pq_1h";

/**
 * Where the counts of `[from, to)` can be summed from: the daily rollup over whole UTC days (an
 * ISO week: 24 times fewer rows), the hourly one over whole hours; null when the period is
 * neither or the limits are not EN 50160's harmonics (the counted ones).
 */
export function countsTable(limits: LimitSet, from: Date, to: Date): CountsTable | null {
  type Order = keyof typeof COUNTED_HARMONICS;
  const counted = HARMONIC_ORDERS.every((o) =>
    limits.harmonics.maxPct[o as Order] === COUNTED_HARMONICS[o as Order]
  );
  const whole = (ms: number) => from.getTime() % ms === 0 && to.getTime() % ms === 0;
  return !counted ? null : whole(DAY_MS) ? "pq_1d" : whole(HOUR_MS) ? "pq_1h" : null;
}

/**
 * Fills `target.valid` and `target.above` for the batch `router` routes from the counts of
 * `table` that `where` selects. Returns the feeders (indices in the batch) whose counts do not
 * stand for the records the load streamed: the caller reads their values.
 */
export async function readHarmonicCounts(
  connection: DuckDBConnection,
  table: CountsTable,
  where: string,
  router: Router,
  target: CountTarget,
  signal?: AbortSignal,
): Promise<Set<number>> {
  // Per feeder and phase: the rollup's records (-1: no row) and flagged records.
  const records = new Int32Array(target.records.length).fill(-1);
  const flagged = new Int32Array(target.records.length);
  const stale = new Set<number>();
  await streamChunks(
    connection,
    `SELECT series_id, sum(n)::INTEGER, (count(*) FILTER (WHERE n_flagged IS NULL))::INTEGER, ${
      COUNT_COLUMNS.map((c) => `sum(${c})::INTEGER`).join(", ")
    } FROM ${table} ${where} GROUP BY series_id`,
    (chunk) => {
      const rows = chunk.rowCount;
      const ids = column(chunk, 0, rows, Int32Array, false).values;
      const n = column(chunk, 1, rows, Int32Array, false).values;
      const withoutCounts = column(chunk, 2, rows, Int32Array, false).values;
      // NULL only where counts are missing: then the feeder is stale whatever the values.
      const sums = COUNT_COLUMNS.map((_, k) =>
        column(chunk, 3 + k, rows, Int32Array, false).values
      );
      for (let r = 0; r < rows; r++) {
        const o = router.owner[ids[r]! - router.lo] ?? -1;
        if (o < 0) continue;
        const f = o >> 2;
        const p = o & 3;
        if (withoutCounts[r]) stale.add(f);
        records[f * PHASES + p] = n[r]!;
        flagged[f * PHASES + p] = sums[0]![r]!;
        for (let k = 0; k < ORDERS; k++) {
          const at = (f * ORDERS + k) * PHASES + p;
          target.valid[at] = sums[1 + 2 * k]![r]!;
          target.above[at] = sums[2 + 2 * k]![r]!;
        }
      }
    },
    signal,
  );
  for (let j = 0; j < records.length; j++) {
    if (
      target.records[j] !== Math.max(0, records[j]!) || target.flaggedRecords[j] !== flagged[j]
    ) stale.add(Math.floor(j / PHASES));
  }
  return stale;
}
