/**
 * Hourly and daily rollups of the 10-minute PQ records (`pq_1h`, `pq_1d`): the number of
 * records, the mean unbalance and the highest Pst and Plt, for visual statistics over long
 * periods. Both also count, over the records of slots no voltage event flagged, each harmonic
 * order's and unbalance's values and those above their EN 50160 limits, and the records of flagged slots
 * (`COUNT_COLUMNS`; the daily counts are the sums of the hourly ones): the grid-wide compliance
 * week sums these instead of reading 24 values per record (core/quality/grid_counts.ts). Both
 * levels are computed from `pq_10min` for the periods and series whose records changed (a
 * device's record, a fold of protocol v1 values) or whose slots were flagged (the aggregator
 * marks them), on the aggregator's connection.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { EN50160_LV, upperLimit } from "../en50160/mod.ts";
import { appendColumns } from "./chunk_writer.ts";
import { COUNT_COLUMNS, HARMONIC_ORDERS, inTransaction, NEWEST_COUNT } from "./schema.ts";
import { notePqChange, type PqChanges } from "./store_pq.ts";

/** The harmonic limits the rollups count against: EN 50160's, the grid-wide week's. */
export const COUNTED_HARMONICS = EN50160_LV.harmonics.maxPct;
/** The unbalance limit they count against (%). */
export const COUNTED_UNBALANCE = EN50160_LV.unbalance.max;

/** Values of `column` present and above `limit` over the records of unflagged slots. */
const countOf = (column: string, limit: number) => {
  const above = upperLimit(limit);
  return [
    `(count(${column}) FILTER (WHERE f.flagged IS NULL))::USMALLINT`,
    `(count(*) FILTER (WHERE f.flagged IS NULL AND ${column}::DOUBLE > '${above}'::DOUBLE))::USMALLINT`,
  ];
};

/**
 * The counts' aggregates, in `COUNT_COLUMNS` order, over `pq_10min` left-joined to the flagged
 * aggregates `f`. "Above" is the engine's own (`upperLimit`: beyond the limit widened by its
 * rounding tolerance), so a value on its limit is inside.
 */
const COUNTS = [
  "(count(*) FILTER (WHERE f.flagged))::USMALLINT",
  ...HARMONIC_ORDERS.flatMap((o) =>
    countOf(`h${o}`, COUNTED_HARMONICS[o as keyof typeof COUNTED_HARMONICS])
  ),
  ...countOf("unbalance", COUNTED_UNBALANCE),
];

/** The hourly counts come from the records, the daily ones are the sums of the hourly ones. */
const LEVELS = [
  { table: "pq_1h", ms: 3_600_000, interval: "1 HOUR", counts: "records" },
  { table: "pq_1d", ms: 86_400_000, interval: "1 DAY", counts: "hours" },
] as const;
/** Above this many changed series, the periods are recomputed for every series. */
const MAX_LISTED_SERIES = 50_000;

/**
 * The rollup rows of the records in `range` (a condition on `slot`) and `where`, one per series
 * and period of `level` with the columns of `level.table`.
 */
function rollupSelect(level: (typeof LEVELS)[number], range: string, where: string): string {
  const common = `time_bucket(INTERVAL ${level.interval}, slot) AS slot, count(*) AS n,
    avg(unbalance)::FLOAT AS unbalance, max(pst) AS pst, max(plt) AS plt`;
  if (level.counts === "hours") {
    // A day of an hour without counts (an earlier release's rollup) has none either.
    const complete = `count(${NEWEST_COUNT}) = count(*)`;
    const sums = COUNT_COLUMNS.map((c) =>
      `(CASE WHEN ${complete} THEN sum(${c}) END)::USMALLINT AS ${c}`
    ).join(", ");
    return `SELECT * FROM (SELECT series_id, ${common} FROM pq_10min
        WHERE (${range}) AND (${where}) GROUP BY ALL)
      LEFT JOIN (SELECT series_id, time_bucket(INTERVAL ${level.interval}, slot) AS slot, ${sums}
        FROM pq_1h WHERE (${range}) AND (${where}) GROUP BY ALL) USING (series_id, slot)`;
  }
  const counts = COUNTS.map((sql, k) => `${sql} AS ${COUNT_COLUMNS[k]}`).join(", ");
  return `SELECT series_id, ${common}, ${counts}
    FROM pq_10min LEFT JOIN (SELECT series_id, slot, flagged FROM agg_10min
      WHERE flagged AND (${range})) f USING (series_id, slot)
    WHERE (${range}) AND (${where}) GROUP BY ALL`;
}

function rollupSql(level: (typeof LEVELS)[number], starts: readonly number[], where: string) {
  const range = starts.map((s) =>
    `(slot >= make_timestamp(${s * 1000}) AND slot < make_timestamp(${(s + level.ms) * 1000}))`
  ).join(" OR ");
  return `INSERT INTO ${level.table} (series_id, slot, n, unbalance, pst, plt, ${
    COUNT_COLUMNS.join(", ")
  })
    ${rollupSelect(level, range, where)}`;
}

/** Keeps `pq_1h` and `pq_1d` up to date with `pq_10min`. */
export class PqRollups {
  /** Changed series by hour start; null: every series of the hour. */
  readonly #hours = new Map<number, Set<number> | null>();

  constructor(private readonly connection: DuckDBConnection) {}

  /** Notes changed records. */
  mark(changes: PqChanges): void {
    for (const [slot, ids] of changes) {
      const hour = slot - (slot % LEVELS[0].ms);
      const known = this.#hours.get(hour);
      if (known === null) continue;
      const set = known ?? new Set<number>();
      for (const id of ids) set.add(id);
      this.#hours.set(hour, set.size > MAX_LISTED_SERIES ? null : set);
    }
  }

  /** Marks the series flagged in the 10-minute slots `closed` (just written to agg_10min). */
  async markFlagged(closed: readonly number[]): Promise<void> {
    const changes: PqChanges = new Map();
    for (let k = 0; k < closed.length; k += 144) {
      const slots = closed.slice(k, k + 144).map((s) => `make_timestamp(${s * 1000})`).join(",");
      const rows = (await this.connection.runAndReadAll(
        `SELECT epoch_ms(slot), series_id FROM agg_10min WHERE flagged AND slot IN (${slots})`,
      )).getRows() as [bigint | number, number][];
      for (const [slot, id] of rows) notePqChange(changes, Number(slot), id);
    }
    this.mark(changes);
  }

  /**
   * After a restart: marks every hour since `since` (epoch ms) whose rollup disagrees with its
   * records (records stored just before the stop) or has no counts (a rollup of an earlier
   * release). The counts themselves are not recomputed to compare (ten times the cost of this
   * query at start): a count left stale is found by the grid week, which reads values instead.
   */
  async recover(since: number): Promise<void> {
    const rows = (await this.connection.runAndReadAll(
      `WITH t AS (
         SELECT series_id, time_bucket(INTERVAL 1 HOUR, slot) AS hour, count(*) AS n,
           avg(unbalance)::FLOAT AS unbalance, max(pst) AS pst, max(plt) AS plt
         FROM pq_10min WHERE slot >= make_timestamp(${since * 1000}) GROUP BY ALL)
       SELECT DISTINCT epoch_ms(t.hour) FROM t
       LEFT JOIN pq_1h a ON a.series_id = t.series_id AND a.slot = t.hour
       WHERE a.n IS DISTINCT FROM t.n OR a.unbalance IS DISTINCT FROM t.unbalance
         OR a.pst IS DISTINCT FROM t.pst OR a.plt IS DISTINCT FROM t.plt OR a.${NEWEST_COUNT} IS NULL`,
    )).getRows() as [bigint | number][];
    for (const [ms] of rows) this.#hours.set(Number(ms), null);
  }

  /** Rewrites the rollups of the marked hours and of their days. */
  async flush(): Promise<void> {
    if (!this.#hours.size) return;
    const hours = new Map(this.#hours);
    this.#hours.clear();
    try {
      const all = [...hours].filter(([, ids]) => ids === null).map(([hour]) => hour);
      const listed = new Set<number>();
      for (const ids of hours.values()) for (const id of ids ?? []) listed.add(id);
      const some = [...hours].filter(([, ids]) => ids !== null).map(([hour]) => hour);
      if (all.length) await this.#rewrite(all, "TRUE");
      if (some.length && listed.size) {
        await this.#stage(listed);
        await this.#rewrite(some, "series_id IN (SELECT series_id FROM pq_changed)");
      }
    } catch (error) {
      // Not written: tried again at the next flush, for every series of those hours.
      for (const hour of hours.keys()) this.#hours.set(hour, null);
      throw error;
    }
  }

  async #stage(ids: Set<number>): Promise<void> {
    const c = this.connection;
    // Replaced, not emptied: DuckDB keeps a temporary table's deleted rows (dropTemp).
    await c.run("CREATE OR REPLACE TEMP TABLE pq_changed (series_id INTEGER)");
    const appender = await c.createAppender("pq_changed", "main", "temp");
    const data = Int32Array.from(ids);
    appendColumns(appender, [{ type: "integer", data }], data.length);
    appender.closeSync();
  }

  async #rewrite(hours: readonly number[], where: string): Promise<void> {
    for (const level of LEVELS) {
      const starts = [...new Set(hours.map((h) => h - (h % level.ms)))];
      for (let k = 0; k < starts.length; k += 48) {
        const chunk = starts.slice(k, k + 48);
        const periods = chunk.map((s) => `make_timestamp(${s * 1000})`).join(",");
        await inTransaction(this.connection, [
          `DELETE FROM ${level.table} WHERE slot IN (${periods}) AND (${where})`,
          rollupSql(level, chunk, where),
        ]);
      }
    }
  }
}
