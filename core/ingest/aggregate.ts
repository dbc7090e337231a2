/**
 * 10-minute aggregation on UTC-aligned slots. Batches report the slots they touched; a slot is
 * aggregated once it is closed (its end plus a grace period has passed) and again whenever late
 * data touches it, so only those slots are recomputed. Missing slots simply have no row: gaps
 * stay gaps. A slot overlapped by a voltage event of its cell is flagged (IEC 61000-4-30).
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { HARMONIC_ORDERS } from "./schema.ts";
import { SLOT_MS } from "./store.ts";

/** Grace after a slot's end before it is aggregated, so the last cells' batches can arrive. */
export const SLOT_GRACE_MS = 60_000;

const harmonicMeans = HARMONIC_ORDERS.map((h) => `sqrt(avg(r.h${h} * r.h${h})) AS h${h}`).join(
  ", ",
);

/** SQL that (re)computes the aggregates of the slots whose starts are in `slots` (epoch ms). */
function aggregateSql(slots: readonly number[]): string {
  const ranges = slots.map((s) =>
    `(r.ts >= make_timestamp(${s * 1000}) AND r.ts < make_timestamp(${(s + SLOT_MS) * 1000}))`
  )
    .join(" OR ");
  return `INSERT OR REPLACE INTO agg_10min
    SELECT r.series_id, time_bucket(INTERVAL 10 MINUTE, r.ts) AS slot, count(*) AS n,
      sqrt(avg(r.u * r.u)), min(r.u), max(r.u), sqrt(avg(r.i * r.i)), min(r.i), max(r.i),
      avg(r.p), avg(r.q), avg(r.pf), sqrt(avg(r.thd_u * r.thd_u)), sqrt(avg(r.thd_i * r.thd_i)),
      avg(r.f), min(r.f), max(r.f), avg(r.unbalance), max(r.pst), max(r.plt),
      ${harmonicMeans},
      bool_or(e.cell_id IS NOT NULL) AS flagged
    FROM raw_measurements r
    JOIN series s ON s.series_id = r.series_id
    LEFT JOIN voltage_events e ON e.cell_id = s.cell_id
      AND e.start_ts < time_bucket(INTERVAL 10 MINUTE, r.ts) + INTERVAL 10 MINUTE
      AND e.end_ts >= time_bucket(INTERVAL 10 MINUTE, r.ts)
    WHERE ${ranges}
    GROUP BY r.series_id, slot`;
}

/** Keeps the 10-minute aggregates up to date with the raw data. */
export class Aggregator {
  readonly #dirty = new Set<number>();
  #running: Promise<number> | null = null;

  constructor(private readonly connection: DuckDBConnection) {}

  /** Marks slots as needing (re)aggregation. */
  markDirty(slotStarts: Iterable<number>): void {
    for (const slot of slotStarts) this.#dirty.add(slot);
  }

  /**
   * After a restart the in-memory dirty set is gone: marks every slot of the last `days` days
   * whose raw rows and aggregate disagree (never aggregated, or late data before the stop).
   */
  async recover(days = 2, now = Date.now()): Promise<number> {
    const since = (now - days * 86_400_000) * 1000;
    const result = await this.connection.runAndReadAll(
      `WITH raw AS (
         SELECT series_id, time_bucket(INTERVAL 10 MINUTE, ts) AS slot, count(*) AS n
         FROM raw_measurements WHERE ts >= make_timestamp(${since}) GROUP BY ALL)
       SELECT DISTINCT epoch_ms(raw.slot) FROM raw
       LEFT JOIN agg_10min a ON a.series_id = raw.series_id AND a.slot = raw.slot
       WHERE a.n IS NULL OR a.n <> raw.n`,
    );
    const slots = (result.getRows() as [bigint | number][]).map(([ms]) => Number(ms));
    this.markDirty(slots);
    return slots.length;
  }

  /** Slots waiting for aggregation (open ones included). */
  get pending(): number {
    return this.#dirty.size;
  }

  /** Aggregates every dirty slot that is closed at `now`; returns how many slots were written. */
  flush(now = Date.now()): Promise<number> {
    // One flush at a time; a caller arriving meanwhile waits for it and then runs its own.
    const run = (this.#running ?? Promise.resolve(0)).then(() => this.#flush(now));
    this.#running = run.finally(() => {
      if (this.#running === run) this.#running = null;
    }) as Promise<number>;
    return run;
  }

  async #flush(now: number): Promise<number> {
    const closed = [...this.#dirty].filter((slot) => slot + SLOT_MS + SLOT_GRACE_MS <= now).sort((
      a,
      b,
    ) => a - b);
    if (!closed.length) return 0;
    for (const slot of closed) this.#dirty.delete(slot);
    try {
      // Chunks keep the WHERE clause small during a backfill of weeks.
      for (let k = 0; k < closed.length; k += 144) {
        await this.connection.run(aggregateSql(closed.slice(k, k + 144)));
      }
    } catch (error) {
      for (const slot of closed) this.#dirty.add(slot);
      throw error;
    }
    return closed.length;
  }
}
