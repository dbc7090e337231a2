/**
 * Voltage-event thresholds and the EN 50160 / IEC 61000-4-30 classification tables, kept in one
 * place so detection, classification and the UI grid never disagree about a limit.
 *
 * Voltages are in % of the reference voltage Uref (Udin for LV), durations in milliseconds.
 *
 * Band edges follow the notation of EN 50160:2010 tables 8 (dips) and 9 (swells), which write
 * the residual-voltage rows as `90 > u >= 80`, `80 > u >= 70`, `70 > u >= 40`, `40 > u >= 5`,
 * `5 > u`, the swell rows as `u >= 120` and `120 > u > 110`, and the duration columns as
 * `10 <= t <= 200`, `200 < t <= 500`, ... `5000 < t <= 60000` ms. Hence:
 * - a dip row holds its LOWER voltage edge: u = 80 % is row 90-80 (not 80-70), u = 40 % is row
 *   70-40, u = 5 % is row 40-5 (an interruption is strictly below 5 %), u = 90 % is no dip;
 * - a swell row holds its UPPER voltage edge: u = 120 % is row >=120, u = 110 % is no swell;
 * - a duration column holds its UPPER edge: t = 200 ms is column 10-200 ms, t = 500 ms is
 *   0.2-0.5 s, t = 60 s is still in the table (5-60 s), t = 60.001 s is outside it;
 * - an interruption of exactly 3 min is short (EN 50160: short "up to and including three
 *   minutes"), 3 min + 1 ms is long.
 *
 * The tables start at 10 ms because that is one half cycle at 50 Hz, the shortest event that
 * Urms(1/2) can see; it is a measuring limit, not a class edge. A 60 Hz half cycle lasts 8.3 ms,
 * so anything shorter than 10 ms lands in the first column instead of falling out of the table.
 *
 * @module
 */

/** Detection thresholds in % of Uref (IEC 61000-4-30 typical LV settings, EN 50160). */
export const THRESHOLDS = {
  /** A dip starts when a phase falls strictly below this value. */
  dipStartPct: 90,
  /** A dip ends when every phase is at or above this value (2 % hysteresis). */
  dipEndPct: 92,
  /** A swell starts when a phase rises strictly above this value. */
  swellStartPct: 110,
  /** A swell ends when every phase is at or below this value (2 % hysteresis). */
  swellEndPct: 108,
  /** Strictly below this on every phase at once, the supply is interrupted. */
  interruptionPct: 5,
  /** Longest short interruption (3 min, inclusive). */
  shortInterruptionMaxMs: 180_000,
  /** Longest event the dip and swell tables hold (60 s, inclusive). */
  tableMaxMs: 60_000,
  /** Longest plausible dip or swell record: anything longer is a broken clock or a bad record. */
  dipMaxPlausibleMs: 86_400_000,
  /** Allowed RVC thresholds in % of Udin (IEC 61000-4-30: 1 % to 6 %). */
  rvcMinThresholdPct: 1,
  rvcMaxThresholdPct: 6,
} as const;

/** Row ids of the dip table, deepest last. */
export type DipRowId = "90-80" | "80-70" | "70-40" | "40-5" | "<5";
/** Column ids of the dip table, shortest first. */
export type DipColumnId = "10-200ms" | "0.2-0.5s" | "0.5-1s" | "1-5s" | "5-60s";
/** Row ids of the swell table, highest first. */
export type SwellRowId = ">=120" | "120-110";
/** Column ids of the swell table, shortest first. */
export type SwellColumnId = "10-500ms" | "0.5-5s" | "5-60s";

/** A residual-voltage row of the dip table: `minPct <= u < maxPct`. */
export interface DipRow {
  readonly id: DipRowId;
  readonly label: string;
  readonly minPct: number;
  readonly maxPct: number;
}

/** A swell row: `u >= minPct` (or `u > minPct` when `minExclusive`), `u < maxPct`. */
export interface SwellRow {
  readonly id: SwellRowId;
  readonly label: string;
  readonly minPct: number;
  readonly minExclusive: boolean;
  readonly maxPct: number;
}

/** A duration column: previous column's `maxMs` < t <= `maxMs`. */
export interface DurationColumn<Id extends string> {
  readonly id: Id;
  readonly label: string;
  readonly maxMs: number;
}

/** EN 50160 table 8 rows (residual voltage). */
export const DIP_ROWS: readonly DipRow[] = [
  { id: "90-80", label: "90 > u ≥ 80", minPct: 80, maxPct: 90 },
  { id: "80-70", label: "80 > u ≥ 70", minPct: 70, maxPct: 80 },
  { id: "70-40", label: "70 > u ≥ 40", minPct: 40, maxPct: 70 },
  { id: "40-5", label: "40 > u ≥ 5", minPct: 5, maxPct: 40 },
  { id: "<5", label: "5 > u", minPct: 0, maxPct: 5 },
];

/** EN 50160 table 8 columns (duration). */
export const DIP_COLUMNS: readonly DurationColumn<DipColumnId>[] = [
  { id: "10-200ms", label: "10 ≤ t ≤ 200 ms", maxMs: 200 },
  { id: "0.2-0.5s", label: "0.2 < t ≤ 0.5 s", maxMs: 500 },
  { id: "0.5-1s", label: "0.5 < t ≤ 1 s", maxMs: 1_000 },
  { id: "1-5s", label: "1 < t ≤ 5 s", maxMs: 5_000 },
  { id: "5-60s", label: "5 < t ≤ 60 s", maxMs: 60_000 },
];

/** EN 50160 table 9 rows (peak voltage). */
export const SWELL_ROWS: readonly SwellRow[] = [
  { id: ">=120", label: "u ≥ 120", minPct: 120, minExclusive: false, maxPct: Infinity },
  { id: "120-110", label: "120 > u > 110", minPct: 110, minExclusive: true, maxPct: 120 },
];

/** EN 50160 table 9 columns (duration). */
export const SWELL_COLUMNS: readonly DurationColumn<SwellColumnId>[] = [
  { id: "10-500ms", label: "10 ≤ t ≤ 500 ms", maxMs: 500 },
  { id: "0.5-5s", label: "0.5 < t ≤ 5 s", maxMs: 5_000 },
  { id: "5-60s", label: "5 < t ≤ 60 s", maxMs: 60_000 },
];

/** A cell of the dip table. */
export interface DipCell {
  readonly table: "DIP";
  readonly row: DipRowId;
  readonly column: DipColumnId;
}

/** A cell of the swell table. */
export interface SwellCell {
  readonly table: "SWELL";
  readonly row: SwellRowId;
  readonly column: SwellColumnId;
}

/** A cell of either table. */
export type TableCell = DipCell | SwellCell;

/** The dip row of a residual voltage, or `null` when it is no dip (u >= 90 %). */
export function dipRow(residualPct: number): DipRowId | null {
  for (const row of DIP_ROWS) {
    if (residualPct >= row.minPct && residualPct < row.maxPct) return row.id;
  }
  return null;
}

/** The swell row of a peak voltage, or `null` when it is no swell (u <= 110 %). */
export function swellRow(peakPct: number): SwellRowId | null {
  for (const row of SWELL_ROWS) {
    const aboveMin = row.minExclusive ? peakPct > row.minPct : peakPct >= row.minPct;
    if (aboveMin && peakPct < row.maxPct) return row.id;
  }
  return null;
}

function columnOf<Id extends string>(
  columns: readonly DurationColumn<Id>[],
  durationMs: number,
): Id | null {
  if (!(durationMs >= 0)) return null;
  for (const column of columns) {
    if (durationMs <= column.maxMs) return column.id;
  }
  return null;
}

/** The dip-table column of a duration, or `null` beyond 60 s. */
export function dipColumn(durationMs: number): DipColumnId | null {
  return columnOf(DIP_COLUMNS, durationMs);
}

/** The swell-table column of a duration, or `null` beyond 60 s. */
export function swellColumn(durationMs: number): SwellColumnId | null {
  return columnOf(SWELL_COLUMNS, durationMs);
}

/** The dip-table cell, or `null` when the voltage is no dip or the event outlasts the table. */
export function dipCell(residualPct: number, durationMs: number): DipCell | null {
  const row = dipRow(residualPct);
  const column = dipColumn(durationMs);
  return row === null || column === null ? null : { table: "DIP", row, column };
}

/** The swell-table cell, or `null` when the voltage is no swell or the event outlasts the table. */
export function swellCell(peakPct: number, durationMs: number): SwellCell | null {
  const row = swellRow(peakPct);
  const column = swellColumn(durationMs);
  return row === null || column === null ? null : { table: "SWELL", row, column };
}

/** Short (<= 3 min) or long (> 3 min) interruption. */
export function interruptionKind(
  durationMs: number,
): "INTERRUPTION_SHORT" | "INTERRUPTION_LONG" {
  return durationMs <= THRESHOLDS.shortInterruptionMaxMs
    ? "INTERRUPTION_SHORT"
    : "INTERRUPTION_LONG";
}
