/**
 * The history of one node for the grid-monitoring screen: its phases' voltage and current on a
 * regular time grid (20-s values up to a day, 10-minute means beyond; missing slots are null so
 * that gaps stay gaps), and when the current state of a phase began, derived from the stored
 * values so that it is right after a restart too.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import type { RawSeries } from "./custom_values.ts";
import { type GridState, STALE_MS } from "./grid_status.ts";

/** Up to this period the 20-s values are answered, beyond it the 10-minute means. */
export const RAW_PERIOD_MAX_MS = 24 * 3_600_000;
/** The longest period of a node's values. */
export const NODE_PERIOD_MAX_DAYS = 7;
/** The shortest period of a node's values (as the data calls of spec 8.2, code 403). */
export const NODE_PERIOD_MIN_MS = 10 * 60_000;

/** Voltage and current of one series on the grid of {@link NodeValues}. */
export interface GridSeries {
  u: (number | null)[];
  i: (number | null)[];
}

/** Values of several series on one regular time grid. */
export interface NodeValues {
  resolution: "20s" | "10min";
  stepMs: number;
  /** Slot starts, epoch ms: from `from` floored to the step, while before `to`. */
  times: number[];
  series: Map<number, GridSeries>;
}

const round2 = (v: unknown) => (typeof v === "number" ? Math.round(v * 100) / 100 : null);

/** The slot starts of `[from, to)` at `stepMs`. */
export function timeGrid(from: number, to: number, stepMs: number): number[] {
  const times: number[] = [];
  for (let t = Math.floor(from / stepMs) * stepMs; t < to; t += stepMs) times.push(t);
  return times;
}

/**
 * Reads `seriesIds` over `[from, to)`: 20-s values from `raw_measurements` when the period is at
 * most {@link RAW_PERIOD_MAX_MS}, else the 10-minute RMS means of `agg_10min`. Values are rounded
 * to 2 decimals; a slot without a value is null in every series.
 */
export async function readNodeValues(
  connection: DuckDBConnection,
  seriesIds: readonly number[],
  from: number,
  to: number,
): Promise<NodeValues> {
  const raw = to - from <= RAW_PERIOD_MAX_MS;
  const stepMs = raw ? 20_000 : 600_000;
  const times = timeGrid(from, to, stepMs);
  const series = new Map<number, GridSeries>();
  const ids = [...new Set(seriesIds.filter((id) => Number.isInteger(id)))];
  for (const id of ids) {
    series.set(id, { u: times.map(() => null), i: times.map(() => null) });
  }
  if (!ids.length || !times.length) {
    return { resolution: raw ? "20s" : "10min", stepMs, times, series };
  }
  const start = times[0]!;
  const sql = raw
    ? `SELECT series_id, epoch_ms(ts), u, i FROM raw_measurements
       WHERE series_id IN (${ids.join(",")})
         AND ts >= make_timestamp(${start * 1000}) AND ts < make_timestamp(${Math.ceil(to) * 1000})`
    : `SELECT series_id, epoch_ms(slot), u_rms, i_rms FROM agg_10min
       WHERE series_id IN (${ids.join(",")})
         AND slot >= make_timestamp(${start * 1000}) AND slot < make_timestamp(${
      Math.ceil(to) * 1000
    })`;
  const result = await connection.runAndReadAll(sql);
  for (const [id, ts, u, i] of result.getRows() as [number, bigint | number, unknown, unknown][]) {
    const s = series.get(id);
    const k = Math.floor((Number(ts) - start) / stepMs);
    if (!s || k < 0 || k >= times.length) continue;
    s.u[k] = round2(u);
    s.i[k] = round2(i);
  }
  return { resolution: raw ? "20s" : "10min", stepMs, times, series };
}

/**
 * When the current run of `state` began in `values` (time order, the newest last): the time of
 * the earliest value of the unbroken run of values that `classify` gives `state`, ending with the
 * newest value. A gap longer than {@link STALE_MS} breaks the run (the phase had no data then).
 * `null` when the newest value is not in `state`. `reachedStart` tells that the run goes back to
 * the first value given (it may have begun before).
 */
export function runStart(
  values: RawSeries,
  state: GridState,
  classify: (u: number, i: number) => GridState,
): { since: number; reachedStart: boolean } | null {
  const n = values.ts.length;
  let k = n - 1;
  const at = (j: number) => classify(values.u[j] ?? NaN, values.i[j] ?? NaN);
  if (k < 0 || at(k) !== state) return null;
  while (k > 0 && values.ts[k]! - values.ts[k - 1]! <= STALE_MS && at(k - 1) === state) k--;
  return { since: values.ts[k]!, reachedStart: k === 0 };
}
