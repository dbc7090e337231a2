/**
 * The SQL of the 10-minute aggregation: the reference recomputation of slots from the raw rows
 * (the fallback of the incremental close) and the hourly and daily rollups. Pure text.
 */
import { replaceRows } from "./schema.ts";
import { SLOT_MS } from "./store_group.ts";

/**
 * SQL that (re)computes the aggregates of the slots whose starts are in `slots` (epoch ms), of
 * every series or only of those `where` selects (a condition on `r.series_id` or `s.cell_id`),
 * and replaces their rows: to be run in one transaction (`inTransaction`). The event flag is
 * looked up per series and slot, so that two events overlapping one slot do not count its
 * values twice.
 */
export function aggregateSql(slots: readonly number[], where = "TRUE"): string[] {
  return replaceRows("agg_10min", "agg_recomputed", aggregateSelect(slots, where));
}

function aggregateSelect(slots: readonly number[], where: string): string {
  const ranges = slots.map((s) =>
    `(r.ts >= make_timestamp(${s * 1000}) AND r.ts < make_timestamp(${(s + SLOT_MS) * 1000}))`
  )
    .join(" OR ");
  return `SELECT g.* EXCLUDE (cell_id), EXISTS (SELECT 1 FROM voltage_events e WHERE e.cell_id = g.cell_id
        AND e.start_ts < g.slot + INTERVAL 10 MINUTE AND e.end_ts >= g.slot) AS flagged
    FROM (SELECT r.series_id, time_bucket(INTERVAL 10 MINUTE, r.ts) AS slot, count(*) AS n,
      sqrt(avg(r.u * r.u)) AS u_rms, min(r.u) AS u_min, max(r.u) AS u_max,
      sqrt(avg(r.i * r.i)) AS i_rms, min(r.i) AS i_min, max(r.i) AS i_max,
      avg(r.p) AS p_mean, avg(r.q) AS q_mean, avg(r.pf) AS pf_mean,
      sqrt(avg(r.thd_u * r.thd_u)) AS thd_u, sqrt(avg(r.thd_i * r.thd_i)) AS thd_i,
      avg(r.f) AS f_mean, min(r.f) AS f_min, max(r.f) AS f_max, any_value(s.cell_id) AS cell_id
    FROM raw_measurements r
    JOIN series s ON s.series_id = r.series_id
    WHERE (${ranges}) AND (${where})
    GROUP BY r.series_id, slot) g`;
}

/**
 * Rollup levels, in order: hours from the 10-minute aggregates, days from the hours (the
 * weighting makes both the same sums; a day reads 24 rows per series instead of 144).
 */
export const ROLLUPS = [
  { table: "agg_1h", source: "agg_10min", ms: 3_600_000, interval: "1 HOUR" },
  { table: "agg_1d", source: "agg_1h", ms: 86_400_000, interval: "1 DAY" },
] as const;

// Weighted by the number of 20-s values, so an hour's RMS is the RMS of its 20-s values.
const rms = (col: string) => `sqrt(sum(a.n * a.${col} * a.${col}) / sum(a.n))`;
const mean = (col: string) => `sum(a.n * a.${col}) / sum(a.n)`;

/**
 * SQL that (re)computes one rollup level for the periods starting at `starts` (epoch ms, UTC),
 * for the series `where` selects (a condition on `series_id`).
 */
export function rollupSql(
  level: (typeof ROLLUPS)[number],
  starts: readonly number[],
  where: string,
) {
  const ranges = starts.map((s) =>
    `(a.slot >= make_timestamp(${s * 1000}) AND a.slot < make_timestamp(${(s + level.ms) * 1000}))`
  ).join(" OR ");
  return `INSERT INTO ${level.table}
    SELECT a.series_id, time_bucket(INTERVAL ${level.interval}, a.slot) AS bucket, sum(a.n),
      ${rms("u_rms")}, min(a.u_min), max(a.u_max), ${rms("i_rms")}, min(a.i_min), max(a.i_max),
      ${mean("p_mean")}, ${mean("q_mean")}, ${mean("pf_mean")}, ${rms("thd_u")}, ${rms("thd_i")},
      ${mean("f_mean")}, min(a.f_min), max(a.f_max), bool_or(a.flagged)
    FROM ${level.source} a WHERE (${ranges}) AND (${where})
    GROUP BY a.series_id, bucket`;
}
