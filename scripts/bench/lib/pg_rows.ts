/**
 * The LVGRID rows as PostgreSQL statements: the raw table of core's shape (the narrow 20-s row;
 * the 10-minute PQ records are not part of this comparison) with the key and index a
 * PostgreSQL user would add, multi-row INSERT parameters, and the 10-minute GROUP BY of
 * core/ingest/aggregate.ts. Pure.
 */
import { RAW_FLOAT_COLUMNS } from "../../../core/ingest/schema.ts";
import type { MeasurementColumns } from "../../../core/simulator/mod.ts";

const VALUE_COLUMNS: readonly string[] = RAW_FLOAT_COLUMNS;
const COLUMNS = 2 + VALUE_COLUMNS.length;

/** Raw table of the same shape as DuckDB's; the key makes retries idempotent (ON CONFLICT). */
export const PG_DDL = [
  `CREATE TABLE raw_measurements (series_id integer NOT NULL, ts timestamp NOT NULL,
     ${VALUE_COLUMNS.map((c) => `${c} real`).join(", ")}, PRIMARY KEY (series_id, ts))`,
  "CREATE INDEX raw_measurements_ts ON raw_measurements USING brin (ts)",
  `CREATE TABLE agg_10min (series_id integer NOT NULL, slot timestamp NOT NULL, n integer NOT NULL,
     u_rms real, u_min real, u_max real, i_rms real, i_min real, i_max real, p_mean real,
     q_mean real, pf_mean real, thd_u real, thd_i real, f_mean real, f_min real, f_max real,
     PRIMARY KEY (series_id, slot))`,
];

const placeholders = new Map<number, string>();

/** `INSERT ... VALUES ($1, ...), ... ON CONFLICT DO NOTHING` for `rows` rows. */
export function insertSql(rows: number): string {
  let values = placeholders.get(rows);
  if (values === undefined) {
    const list: string[] = [];
    for (let r = 0; r < rows; r++) {
      const row = Array.from({ length: COLUMNS }, (_, c) => `$${r * COLUMNS + c + 1}`);
      list.push(`(${row.join(",")})`);
    }
    values = list.join(",");
    placeholders.set(rows, values);
  }
  return `INSERT INTO raw_measurements VALUES ${values} ON CONFLICT DO NOTHING`;
}

const orNull = (v: number) => (Number.isNaN(v) ? null : v);

/** Series id of a row: cell x 24 + feeder x 4 + probe, as in the DuckDB benchmarks. */
export const pgSeriesId = (cols: MeasurementColumns, r: number, firstCell: number) =>
  (firstCell + cols.cell[r]!) * 24 + (cols.feeder[r]! - 1) * 4 + cols.phase[r]! + 1;

/** Parameters of rows `[0, count)` grouped by cell (one statement per cell). */
export function paramsByCell(
  cols: MeasurementColumns,
  count: number,
  firstCell = 0,
): Map<number, { rows: number; params: (number | string | null)[] }> {
  const out = new Map<number, { rows: number; params: (number | string | null)[] }>();
  for (let r = 0; r < count; r++) {
    const cell = cols.cell[r]!;
    let entry = out.get(cell);
    if (!entry) out.set(cell, entry = { rows: 0, params: [] });
    entry.rows++;
    const p = entry.params;
    p.push(pgSeriesId(cols, r, firstCell), new Date(cols.ts[r]!).toISOString().slice(0, 23));
    p.push(orNull(cols.u[r]!), orNull(cols.i[r]!), orNull(cols.p[r]!), orNull(cols.q[r]!));
    p.push(orNull(cols.pf[r]!), orNull(cols.thdU[r]!), orNull(cols.thdI[r]!), orNull(cols.f[r]!));
  }
  return out;
}

/** Server-side rows for one slot of `cells` cells (for the aggregation, not a measured ingest). */
export function generatedSlotSql(cells: number, slotIso: string): string {
  const noise = (k: number) => `((abs(hashint8(s * 1000 + w * 37 + ${k})) % 10000) / 10000.0)`;
  const values = VALUE_COLUMNS.map((_, k) => `${k === 0 ? 225 : 1} + 10 * ${noise(k)}`);
  return `INSERT INTO raw_measurements SELECT s, timestamp '${slotIso}' + w * interval '20 seconds',
      ${values.join(", ")}
    FROM generate_series(1, ${cells * 24}) s, generate_series(0, 29) w`;
}

/** The 10-minute aggregation of core/ingest/aggregate.ts for one slot, in PostgreSQL. */
export function pgAggregateSql(slotIso: string): string {
  const rms = (c: string) => `sqrt(avg(${c} * ${c}))`;
  return `INSERT INTO agg_10min
    SELECT series_id, date_bin('10 minutes', ts, timestamp '2000-01-01') AS slot, count(*),
      ${rms("u")}, min(u), max(u), ${rms("i")}, min(i), max(i), avg(p), avg(q), avg(pf),
      ${rms("thd_u")}, ${rms("thd_i")}, avg(f), min(f), max(f)
    FROM raw_measurements
    WHERE ts >= timestamp '${slotIso}' AND ts < timestamp '${slotIso}' + interval '10 minutes'
    GROUP BY 1, 2`;
}

/** Latest value of every series of the first `cells` cells within the staleness window. */
export function pgLatestSql(cells: number, sinceIso: string): string {
  return `SELECT DISTINCT ON (series_id) series_id, ts, u, i FROM raw_measurements
    WHERE series_id <= ${cells * 24} AND ts >= timestamp '${sinceIso}'
    ORDER BY series_id, ts DESC`;
}
