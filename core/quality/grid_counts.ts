/**
 * The PQ records of a grid-wide week from what the PQ rollups keep as the slots close
 * (core/ingest/pq_rollup.ts) instead of the 6M records themselves:
 * - the harmonics and unbalance from the counts: per order, and of unbalance, the values present
 *   and those above the EN 50160 limit over the records of unflagged slots, and the records of
 *   flagged slots; per series, the sums over the period's days (or hours);
 * - Plt from the hourly rollup's highest Plt, two hours to a 2-hour block.
 *
 * The sums must stand for the very records a read of the values would find, with the very slots
 * the feeder's aggregates flag. Per series, the records as stored (counted in DuckDB: no record
 * leaves it) must equal both rollups' records, and the rollup's records of flagged slots the
 * flagged aggregates the load read; no series may hold a record in a slot its feeder's
 * aggregates flag but its own do not (the rollup counted it, the engine leaves the slot out).
 * Where a period is not rolled up yet, has no counts (a rollup of an earlier release), was rolled
 * up before its slot's flag, lacks a record in a flagged slot, or one phase alone is flagged, the
 * caller reads that feeder's values instead.
 */
import type { DuckDBConnection, DuckDBDataChunk } from "@duckdb/node-api";
import { COUNTED_HARMONICS, COUNTED_UNBALANCE } from "../ingest/pq_rollup.ts";
import { COUNT_COLUMNS, HARMONIC_ORDERS, NEWEST_COUNT } from "../ingest/schema.ts";
import { SLOT_MS } from "../ingest/store.ts";
import type { LimitSet } from "../en50160/mod.ts";
import { column, isValid, PHASES, readResults, type Router } from "./grid_chunks.ts";

const ORDERS = HARMONIC_ORDERS.length;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const PLT_BLOCK_MS = 2 * HOUR_MS;

/** What a batch's counted records fill, and what the load of its aggregates found. */
export interface CountTarget {
  slots: number;
  blocks: number;
  /** Harmonics per feeder, order and phase `[(feeder * ORDERS + order) * 3 + phase]`. */
  valid: Int32Array;
  above: Int32Array;
  /** Unbalance per feeder `[feeder * 2]` (present), `[feeder * 2 + 1]` (above). */
  unbalanceCounts: Int32Array;
  /** Plt per feeder, phase and 2-hour block `[(feeder * 3 + phase) * blocks + block]`. */
  plt: Float32Array;
  /** The feeders' flagged slots `[feeder * slots + slot]` (from the aggregates)... */
  flagged: Uint8Array;
  /** ...and each phase's own: `(feeder * 3 + phase) * slots + slot` of its flagged aggregates. */
  seriesFlagged: Set<number>;
}

/** A PQ rollup whose counts the period can be summed from (whole days or hours). */
export type CountsTable = "pq_1d" | "pq_1h";

/**
 * Where the counts of `[from, to)` can be summed from: the daily rollup over whole UTC days (an
 * ISO week: 24 times fewer rows), the hourly one over whole hours; null when the period is
 * neither or the limits are not EN 50160's harmonics and unbalance (the counted ones).
 */
export function countsTable(limits: LimitSet, from: Date, to: Date): CountsTable | null {
  type Order = keyof typeof COUNTED_HARMONICS;
  const counted = limits.unbalance.max === COUNTED_UNBALANCE &&
    HARMONIC_ORDERS.every((o) =>
      limits.harmonics.maxPct[o as Order] === COUNTED_HARMONICS[o as Order]
    );
  const whole = (ms: number) => from.getTime() % ms === 0 && to.getTime() % ms === 0;
  return !counted ? null : whole(DAY_MS) ? "pq_1d" : whole(HOUR_MS) ? "pq_1h" : null;
}

/**
 * Fills the counts and Plt of `target` for the batch `router` routes over `[from, to)` (`where`
 * selects the period's rows of the batch's series; `unbalancePhase` per feeder: the phase that
 * carries its unbalance, -1: none). Returns the feeders (indices in the batch) whose counts do
 * not stand for their records: the caller reads their values.
 */
export async function readCounts(
  connection: DuckDBConnection,
  table: CountsTable,
  from: Date,
  where: string,
  router: Router,
  unbalancePhase: Int8Array,
  target: CountTarget,
  signal?: AbortSignal,
): Promise<Set<number>> {
  const { slots, blocks, valid, above, unbalanceCounts, plt } = target;
  const size = target.flagged.length / slots * PHASES;
  // Per feeder and phase: the records as stored, as `table` counted them and as the hourly
  // rollup holds them; the records of flagged slots as counted, and the flagged aggregates.
  const records = new Int32Array(size);
  const rolledUp = new Int32Array(size);
  const hourly = new Int32Array(size);
  const rolledUpFlagged = new Int32Array(size);
  const flaggedAggregates = new Int32Array(size);
  for (const key of target.seriesFlagged) flaggedAggregates[Math.floor(key / slots)]!++;
  const stale = new Set<number>();
  /** Each row of a chunk of `series_id, ...` that is the batch's, with its feeder and phase. */
  const perRow =
    (read: (r: number, f: number, p: number) => void) => (rows: number, ids: Int32Array) => {
      for (let r = 0; r < rows; r++) {
        const o = router.owner[ids[r]! - router.lo] ?? -1;
        if (o >= 0) read(r, o >> 2, o & 3);
      }
    };
  const query = (
    sql: string,
    read: (chunk: DuckDBDataChunk, rows: number, ids: Int32Array) => void,
  ) =>
    readResults(connection, [sql], (chunk) => {
      const rows = chunk.rowCount;
      read(chunk, rows, column(chunk, 0, rows, Int32Array, false).values);
    }, signal);
  // The counts, summed here: DuckDB's GROUP BY of 51 sums over a week's 42,000 daily rows
  // takes five times longer than reading the rows.
  const newest = COUNT_COLUMNS.indexOf(NEWEST_COUNT);
  await query(
    `SELECT series_id, n, ${COUNT_COLUMNS.join(", ")} FROM ${table} ${where}`,
    (chunk, rows, ids) => {
      const n = column(chunk, 1, rows, Uint16Array, false).values;
      const counts = COUNT_COLUMNS.map((_, k) =>
        column(chunk, 2 + k, rows, Uint16Array, k === newest)
      );
      const [flagged, unbalanceValid, unbalanceAbove] = [0, 1 + 2 * ORDERS, 2 + 2 * ORDERS].map(
        (k) => counts[k]!.values,
      );
      perRow((r, f, p) => {
        const j = f * PHASES + p;
        rolledUp[j]! += n[r]!;
        // A rollup of an earlier release: no counts, the feeder is read.
        if (!isValid(counts[newest]!.mask, r)) return void stale.add(f);
        rolledUpFlagged[j]! += flagged![r]!;
        for (let k = 0; k < ORDERS; k++) {
          const at = (f * ORDERS + k) * PHASES + p;
          valid[at]! += counts[1 + 2 * k]!.values[r]!;
          above[at]! += counts[2 + 2 * k]!.values[r]!;
        }
        if (p === unbalancePhase[f]) {
          unbalanceCounts[f * 2]! += unbalanceValid![r]!;
          unbalanceCounts[f * 2 + 1]! += unbalanceAbove![r]!;
        }
      })(rows, ids);
    },
  );
  // Plt: a device's Plt covers 2 hours, the block's highest value (of every record, flagged or
  // not: the engine leaves flagged blocks out itself).
  await query(
    `SELECT series_id, ((epoch_ms(slot) - ${from.getTime()}) // ${PLT_BLOCK_MS})::INTEGER, n,
       plt FROM pq_1h ${where}`,
    (chunk, rows, ids) => {
      const block = column(chunk, 1, rows, Int32Array, false).values;
      const n = column(chunk, 2, rows, Uint16Array, false).values;
      const { values, mask } = column(chunk, 3, rows, Float32Array);
      perRow((r, f, p) => {
        const b = block[r]!;
        if (b < 0 || b >= blocks) return;
        const j = f * PHASES + p;
        hourly[j]! += n[r]!;
        const at = j * blocks + b;
        if (isValid(mask, r) && !(plt[at]! >= values[r]!)) plt[at] = values[r]!;
      })(rows, ids);
    },
  );
  await query(
    `SELECT series_id, count(*)::INTEGER FROM pq_10min ${where} GROUP BY series_id`,
    (chunk, rows, ids) => {
      const n = column(chunk, 1, rows, Int32Array, false).values;
      perRow((r, f, p) => records[f * PHASES + p] = n[r]!)(rows, ids);
    },
  );
  router.owner.forEach((o) => {
    const j = (o >> 2) * PHASES + (o & 3);
    if (
      o >= 0 && (rolledUp[j] !== records[j] || hourly[j] !== records[j] ||
        rolledUpFlagged[j] !== flaggedAggregates[j])
    ) stale.add(o >> 2);
  });
  for (const f of await recordsInGaps(connection, from, router, target, signal)) stale.add(f);
  return stale;
}

/**
 * The feeders with a record in a slot that their aggregates flag but not those of the record's
 * own series (a dip on one phase): the rollups counted that record, the engine leaves it out.
 */
async function recordsInGaps(
  connection: DuckDBConnection,
  from: Date,
  { lo, owner }: Router,
  { slots, flagged, seriesFlagged }: CountTarget,
  signal?: AbortSignal,
): Promise<Set<number>> {
  // Each feeder's flagged slots.
  const flaggedSlots: number[][] = [];
  for (let j = 0; j < flagged.length; j++) {
    if (flagged[j]) (flaggedSlots[Math.floor(j / slots)] ??= []).push(j % slots);
  }
  const ids: number[] = [];
  const micros: number[] = [];
  owner.forEach((o, k) => {
    if (o < 0) return;
    const base = ((o >> 2) * PHASES + (o & 3)) * slots;
    for (const i of flaggedSlots[o >> 2] ?? []) {
      if (!seriesFlagged.has(base + i)) {
        ids.push(lo + k), micros.push((from.getTime() + i * SLOT_MS) * 1000);
      }
    }
  });
  const feeders = new Set<number>();
  if (!ids.length) return feeders;
  await readResults(
    connection,
    [`SELECT DISTINCT series_id FROM pq_10min SEMI JOIN (SELECT unnest([${ids.join(",")}]) AS id,
       make_timestamp(unnest([${micros.join(",")}])) AS slot) g
       ON series_id = g.id AND pq_10min.slot = g.slot`],
    (chunk) => {
      const rows = chunk.rowCount;
      const found = column(chunk, 0, rows, Int32Array, false).values;
      for (let r = 0; r < rows; r++) feeders.add(owner[found[r]! - lo]! >> 2);
    },
    signal,
  );
  return feeders;
}
