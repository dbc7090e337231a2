/**
 * Reads the stored 20-s values of some series over a time window from `raw_measurements`: the
 * full-resolution data a custom monitoring request serves, and the recent currents an automatic
 * trigger compares.
 */
import type { DuckDBConnection } from "@duckdb/node-api";

/** The values of one series in time order, columnar (ready for a chart). */
export interface RawSeries {
  /** Epoch ms. */
  ts: number[];
  u: (number | null)[];
  i: (number | null)[];
}

/** Values of `seriesIds` with `from <= ts < to` (epoch ms), per series id; absent series are missing. */
export async function readRawValues(
  connection: DuckDBConnection,
  seriesIds: readonly number[],
  from: number,
  to: number,
): Promise<Map<number, RawSeries>> {
  const out = new Map<number, RawSeries>();
  const ids = seriesIds.filter((id) => Number.isInteger(id));
  if (!ids.length || !(to > from)) return out;
  const result = await connection.runAndReadAll(
    `SELECT series_id, epoch_ms(ts), u, i FROM raw_measurements
     WHERE series_id IN (${ids.join(",")})
       AND ts >= make_timestamp(${Math.floor(from) * 1000})
       AND ts < make_timestamp(${Math.ceil(to) * 1000})
     ORDER BY series_id, ts`,
  );
  for (const [id, ts, u, i] of result.getRows() as [number, bigint | number, unknown, unknown][]) {
    let series = out.get(id);
    if (!series) out.set(id, series = { ts: [], u: [], i: [] });
    series.ts.push(Number(ts));
    series.u.push(typeof u === "number" ? u : null);
    series.i.push(typeof i === "number" ? i : null);
  }
  return out;
}
