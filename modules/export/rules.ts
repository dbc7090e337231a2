/**
 * The rules of a data export, shared by the server and the web form: the constants of spec 9,
 * the parameters with their columns and estimation types, the name and period rules, the
 * file name (GDE_<name>_<period>) and the size estimate. Pure.
 */

const DAY_MS = 86_400_000;

/** Spec 9 "Data export" and the choices of docs/export.md where the spec is silent. */
export const EXPORT_LIMITS = Object.freeze({
  /** Files kept 7 days (maximum availability). */
  retentionDays: 7,
  /** Maximum (estimated) size in bytes. */
  maxBytes: 1e9,
  /** Period at most one year (366 days: a leap year's). */
  maxPeriodDays: 366,
  /** Exports of one customer running at once; the others wait in the queue. */
  runningPerCustomer: 2,
  maxFeeders: 500,
  maxNameLength: 60,
  filePrefix: "GDE_",
});

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

/** Flat, or folders per station / node / feeder / month (each level inside the previous). */
export const STRUCTURES = ["flat", "station", "node", "feeder", "month"] as const;
export type DirectoryStructure = (typeof STRUCTURES)[number];

/** Spec 4 export statuses, and QUEUED (waiting for a free slot, beyond the spec). */
export const EXPORT_STATUSES = [
  "QUEUED",
  "IN_PROGRESS",
  "FINISHED",
  "FAILED",
  "CANCELLED",
  "DELETED",
  "DOWNLOADED",
] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

/** Statuses whose file can be downloaded. */
export const DOWNLOADABLE: readonly ExportStatus[] = ["FINISHED", "DOWNLOADED"];
/** Statuses of an export that is not over yet (cancel applies). */
export const ACTIVE: readonly ExportStatus[] = ["QUEUED", "IN_PROGRESS"];

/** One exportable parameter: its column at the 20-s level and in the aggregates. */
export interface ExportParameter {
  key: string;
  unit: string;
  type: EstimationType;
  raw: string;
  aggregate: string;
  /** Whether the neutral conductor carries it. */
  neutral: boolean;
}

export const EXPORT_PARAMETERS: readonly ExportParameter[] = Object.freeze([
  { key: "u", unit: "V", type: "voltage", raw: "u", aggregate: "u_rms", neutral: false },
  { key: "i", unit: "A", type: "current", raw: "i", aggregate: "i_rms", neutral: true },
  { key: "p", unit: "kW", type: "power", raw: "p", aggregate: "p_mean", neutral: false },
  { key: "q", unit: "kvar", type: "power", raw: "q", aggregate: "q_mean", neutral: false },
  { key: "pf", unit: "", type: "other", raw: "pf", aggregate: "pf_mean", neutral: false },
  { key: "thd_u", unit: "%", type: "other", raw: "thd_u", aggregate: "thd_u", neutral: false },
  { key: "thd_i", unit: "%", type: "other", raw: "thd_i", aggregate: "thd_i", neutral: false },
  { key: "f", unit: "Hz", type: "frequency", raw: "f", aggregate: "f_mean", neutral: false },
]);
export const EXPORT_PARAMETER_KEYS = ["u", "i", "p", "q", "pf", "thd_u", "thd_i", "f"] as const;
export type ExportParameterKey = (typeof EXPORT_PARAMETER_KEYS)[number];

export function exportParameter(key: string): ExportParameter | undefined {
  return EXPORT_PARAMETERS.find((p) => p.key === key);
}

/** Characters not allowed in names (spec 5), and control characters. */
// deno-lint-ignore no-control-regex
const FORBIDDEN = /[:<>"/\\|?*!\u0000-\u001f]/;

/** The first rule a file name breaks (a catalogue key), or null. */
export function exportNameIssue(
  name: string,
): { key: string; params: Record<string, unknown> } | null {
  const trimmed = name.trim();
  if (!trimmed) return { key: "validation.required", params: {} };
  if (trimmed.length > EXPORT_LIMITS.maxNameLength) {
    return { key: "validation.nameMax", params: { count: EXPORT_LIMITS.maxNameLength } };
  }
  if (FORBIDDEN.test(trimmed)) return { key: "validation.forbiddenChars", params: {} };
  return null;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** Epoch ms of an ISO 8601 instant with an offset, or NaN. */
export function parseExportInstant(text: string): number {
  return ISO.test(text) ? Date.parse(text) : NaN;
}

/** The key of the rule a period breaks, or null (from before to, at most one year). */
export function exportPeriodIssue(from: string, to: string): string | null {
  const a = parseExportInstant(from);
  const b = parseExportInstant(to);
  if (!Number.isFinite(a) || !Number.isFinite(b)) return "validation.dateInvalid";
  if (a >= b) return "data.periodIncorrect";
  if (b - a > EXPORT_LIMITS.maxPeriodDays * DAY_MS) return "validation.exportPeriodMax";
  return null;
}

/** GDE_<name>_<from>_<to> (UTC days, the last one included) with its extension. */
export function exportFileName(name: string, from: string, to: string, ext: string): string {
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10).replaceAll("-", "");
  const safe = name.trim().replace(/\s+/g, "_");
  const a = parseExportInstant(from);
  const b = parseExportInstant(to) - 1;
  return `${EXPORT_LIMITS.filePrefix}${safe}_${day(a)}-${day(b)}.${ext}`;
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
): { rows: number; bytes: number } {
  let rows = 0;
  let bytes = 0;
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
