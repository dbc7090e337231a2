/**
 * The data export's catalogue of parameters and its size estimate (spec 9 "Data export": the
 * estimation sizes per type), shared with the web form. Pure: imports nothing.
 */

const DAY_MS = 86_400_000;

/** Estimation sizes per type (spec 9): bytes of one timestamp of one feeder for the type. */
export const ESTIMATION_SIZES = Object.freeze({
  current: 84,
  voltage: 63,
  power: 84,
  energy: 168,
  frequency: 6,
  other: 23,
  temperature: 6,
});
export type EstimationType = keyof typeof ESTIMATION_SIZES;

export const EXPORT_INTERVALS = ["20s", "10min", "1h", "1d"] as const;
export type ExportInterval = (typeof EXPORT_INTERVALS)[number];
export const INTERVAL_MS: Readonly<Record<ExportInterval, number>> = {
  "20s": 20_000,
  "10min": 600_000,
  "1h": 3_600_000,
  "1d": DAY_MS,
};

export const EXPORT_FORMATS = ["csv", "parquet", "duckdb"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/**
 * Long: one row per time, feeder, phase and parameter. Wide: one row per time, feeder and
 * phase with a column per parameter (what a spreadsheet user filters and charts).
 */
export const EXPORT_LAYOUTS = ["long", "wide"] as const;
export type ExportLayout = (typeof EXPORT_LAYOUTS)[number];

/** One exportable parameter: its column at the 20-s level and in the aggregates. */
export interface ExportParameter {
  key: string;
  unit: string;
  type: EstimationType;
  raw: string;
  aggregate: string;
  /** Whether the neutral conductor carries it. */
  neutral: boolean;
  /** A quantity of the PQ record (`pq_10min`, rollups `pq_1h`, `pq_1d`), not of the 20-s row. */
  pq?: boolean;
}

/** Harmonic orders of the PQ record (core/ingest/schema.ts: h2..h25, % of the fundamental). */
const HARMONICS = Array.from({ length: 24 }, (_, k) => `h${k + 2}` as const);

/** A quantity of the 10-minute PQ record (`pq_10min`): type "other" of the spec's sizes. */
const pq = (key: string, unit: string): ExportParameter => ({
  key,
  unit,
  type: "other",
  raw: key,
  aggregate: key,
  neutral: false,
  pq: true,
});

export const EXPORT_PARAMETERS: readonly ExportParameter[] = Object.freeze([
  { key: "u", unit: "V", type: "voltage", raw: "u", aggregate: "u_rms", neutral: false },
  { key: "i", unit: "A", type: "current", raw: "i", aggregate: "i_rms", neutral: true },
  { key: "p", unit: "kW", type: "power", raw: "p", aggregate: "p_mean", neutral: false },
  { key: "q", unit: "kvar", type: "power", raw: "q", aggregate: "q_mean", neutral: false },
  { key: "pf", unit: "", type: "other", raw: "pf", aggregate: "pf_mean", neutral: false },
  { key: "thd_u", unit: "%", type: "other", raw: "thd_u", aggregate: "thd_u", neutral: false },
  { key: "thd_i", unit: "%", type: "other", raw: "thd_i", aggregate: "thd_i", neutral: false },
  { key: "f", unit: "Hz", type: "frequency", raw: "f", aggregate: "f_mean", neutral: false },
  pq("unbalance", "%"),
  pq("pst", ""),
  pq("plt", ""),
  ...HARMONICS.map((h) => pq(h, "%")),
] as ExportParameter[]);
export const EXPORT_PARAMETER_KEYS = [
  "u",
  "i",
  "p",
  "q",
  "pf",
  "thd_u",
  "thd_i",
  "f",
  "unbalance",
  "pst",
  "plt",
  ...HARMONICS,
] as const;
export type ExportParameterKey = (typeof EXPORT_PARAMETER_KEYS)[number];
/** The quantities of the 10-minute PQ record: 10-minute, hourly or daily intervals only. */
export const PQ_PARAMETER_KEYS: readonly ExportParameterKey[] = EXPORT_PARAMETER_KEYS.slice(8);

export function exportParameter(key: string): ExportParameter | undefined {
  return EXPORT_PARAMETERS.find((p) => p.key === key);
}

/** The slots of a period at an interval: every slot whose start lies in [from, to). */
export function slotCount(fromMs: number, toMs: number, interval: ExportInterval): number {
  const step = INTERVAL_MS[interval];
  const start = Math.ceil(fromMs / step) * step;
  return Math.max(0, Math.ceil((toMs - start) / step));
}

/** A feeder of an estimate: whether it has a neutral probe, and the bytes of its names. */
export interface EstimatedFeeder {
  hasNeutral: boolean;
  /** Characters of station, node and feeder names in a CSV row. */
  nameBytes: number;
}

/**
 * Bytes per CSV row besides the names and the value: two timestamps (19 characters each),
 * phase, parameter, unit, quality flag and ten separators.
 */
const CSV_ROW_FIXED = 19 + 19 + 2 + 4 + 3 + 7 + 10;
/**
 * The spec's sizes are bytes of one timestamp of one feeder for a type; a long-layout row holds
 * one value: the size split over the values of the type (three phases, or four with N for
 * current), plus the other columns.
 */
const VALUES_PER_TYPE: Readonly<Record<EstimationType, number>> = {
  current: 8,
  voltage: 6,
  power: 8,
  energy: 8,
  frequency: 1,
  other: 2,
  temperature: 1,
};
/** Size of a Parquet or DuckDB file relative to the CSV (typed columns, zstd, dictionaries). */
const FORMAT_FACTOR: Readonly<Record<ExportFormat, number>> = {
  csv: 1,
  parquet: 0.12,
  duckdb: 0.2,
};

/** Rows and estimated bytes of an export. */
export function estimateExport(
  feeders: readonly EstimatedFeeder[],
  parameters: readonly string[],
  slots: number,
  format: ExportFormat,
  layout: ExportLayout = "long",
): { rows: number; bytes: number } {
  let rows = 0;
  let bytes = 0;
  if (layout === "wide") {
    // A row per slot and phase (N when a parameter it carries is chosen), a value per column.
    const chosen = parameters.map(exportParameter).filter((p) => p !== undefined);
    const values = chosen.reduce(
      (n, p) => n + ESTIMATION_SIZES[p.type] / VALUES_PER_TYPE[p.type] + 1,
      0,
    );
    const neutral = chosen.filter((p) => p.neutral);
    const neutralValues = neutral.reduce((n, p) =>
      n + ESTIMATION_SIZES[p.type] / VALUES_PER_TYPE[p.type], 0) + chosen.length;
    for (const feeder of feeders) {
      const fixed = 19 + 19 + 2 + 7 + 8 + feeder.nameBytes;
      rows += slots * 3;
      bytes += slots * 3 * (fixed + values);
      if (neutral.length && feeder.hasNeutral) {
        rows += slots;
        bytes += slots * (fixed + neutralValues);
      }
    }
    return { rows, bytes: Math.round(bytes * FORMAT_FACTOR[format]) };
  }
  for (const feeder of feeders) {
    for (const key of parameters) {
      const p = exportParameter(key);
      if (!p) continue;
      const phases = p.neutral && feeder.hasNeutral ? 4 : 3;
      const n = slots * phases;
      const value = ESTIMATION_SIZES[p.type] / VALUES_PER_TYPE[p.type];
      rows += n;
      bytes += n * (CSV_ROW_FIXED + feeder.nameBytes + value);
    }
  }
  return { rows, bytes: Math.round(bytes * FORMAT_FACTOR[format]) };
}
