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

/** Rollup levels computed from the 10-minute aggregates. */
const ROLLUPS = [
  { table: "agg_1h", ms: 3_600_000, interval: "1 HOUR" },
  { table: "agg_1d", ms: 86_400_000, interval: "1 DAY" },
] as const;

// Weighted by the number of 20-s values, so an hour's RMS is the RMS of its 20-s values.
const rms = (col: string) => `sqrt(sum(a.n * a.${col} * a.${col}) / sum(a.n))`;
const mean = (col: string) => `sum(a.n * a.${col}) / sum(a.n)`;

/** SQL that (re)computes one rollup level for the periods starting at `starts` (epoch ms, UTC). */
function rollupSql(level: (typeof ROLLUPS)[number], starts: readonly number[]): string {
  const ranges = starts.map((s) =>
    `(a.slot >= make_timestamp(${s * 1000}) AND a.slot < make_timestamp(${(s + level.ms) * 1000}))`
  ).join(" OR ");
  return `INSERT OR REPLACE INTO ${level.table}
    SELECT a.series_id, time_bucket(INTERVAL ${level.interval}, a.slot) AS bucket, sum(a.n),
      ${rms("u_rms")}, min(a.u_min), max(a.u_max), ${rms("i_rms")}, min(a.i_min), max(a.i_max),
      ${mean("p_mean")}, ${mean("q_mean")}, ${mean("pf_mean")}, ${rms("thd_u")}, ${rms("thd_i")},
      ${mean("f_mean")}, min(a.f_min), max(a.f_max), ${
    mean("unbalance")
  }, max(a.pst_max), max(a.plt),
      ${HARMONIC_ORDERS.map((h) => rms(`h${h}`)).join(", ")},
      bool_or(a.flagged)
    FROM agg_10min a WHERE ${ranges}
    GROUP BY a.series_id, bucket`;
}

/** Keeps the 10-minute aggregates and their hourly and daily rollups up to date with the raw data. */
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
      // Partial hours and days are rolled up too and refreshed as their slots close.
      for (const level of ROLLUPS) {
        const starts = [...new Set(closed.map((slot) => slot - (slot % level.ms)))];
        for (let k = 0; k < starts.length; k += 48) {
          await this.connection.run(rollupSql(level, starts.slice(k, k + 48)));
        }
      }
    } catch (error) {
      for (const slot of closed) this.#dirty.add(slot);
      throw error;
    }
    return closed.length;
  }
}
