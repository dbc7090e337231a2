/**
 * The result rows of a run, their ratios to the calibration, the targets of
 * /work/shared/guide/quality.md and the closing table. Pure.
 */

/** The two machine figures every run measures first. */
export interface Calibration {
  /** `INSERT INTO t SELECT * FROM src`, rows/s. */
  engineRowsPerSec: number;
  /** `SELECT sum(x)` over doubles, bytes/s. */
  scanBytesPerSec: number;
}

/** What a ratio is taken against: a row rate (engine limit) or a byte rate (scan bandwidth). */
export type Basis =
  | { kind: "engine"; rowsPerSec: number }
  | { kind: "bandwidth"; bytesPerSec: number };

/** A target of quality.md: its text and whether a figure meets it. */
export interface Target {
  text: string;
  met: (value: number, ratio: number | null) => boolean;
}

/** One line of the closing table. */
export interface Result {
  name: string;
  /** Names a figure that a later comparison (product / PostgreSQL) looks up. */
  key?: string;
  /** Rows the workload handled, to compare workloads of different sizes. */
  rows?: number;
  value: number;
  unit: string;
  basis?: Basis;
  target?: Target;
  /** Set when the workload is smaller than the one the target is defined for. */
  scaled?: boolean;
}

/** Ratio of a result's rate to the calibration figure of its basis, or null. */
export function ratioOf(result: Result, calibration: Calibration): number | null {
  if (!result.basis) return null;
  return result.basis.kind === "engine"
    ? result.basis.rowsPerSec / calibration.engineRowsPerSec
    : result.basis.bytesPerSec / calibration.scanBytesPerSec;
}

/** At most `max` target on the value. */
export const atMost = (max: number, text: string): Target => ({
  text,
  met: (value) => value <= max,
});

/** At least `min` target on the value. */
export const atLeast = (min: number, text: string): Target => ({
  text,
  met: (value) => value >= min,
});

/** At least `min` target on the ratio column. */
export const ratioAtLeast = (min: number, text: string): Target => ({
  text,
  met: (_value, ratio) => ratio !== null && ratio >= min,
});

/** A human-friendly number: thousands separators, about three significant digits. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : abs >= 0.01 ? 3 : 5;
  return value.toLocaleString("en-US", {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

/** The verdict of a result: "yes", "no", "-" (no target); scaled runs get a star. */
export function verdict(result: Result, ratio: number | null): string {
  if (!result.target) return "-";
  const met = result.target.met(result.value, ratio) ? "yes" : "no";
  return result.scaled ? `${met}*` : met;
}

/** The closing table as Markdown (readable in a terminal, pasted as is into the docs). */
export function resultTable(results: readonly Result[], calibration: Calibration): string {
  const header = ["benchmark", "value", "unit", "ratio", "target", "met?"];
  const rows = results.map((r) => {
    const ratio = ratioOf(r, calibration);
    const basis = r.basis?.kind === "engine" ? "x engine" : "x scan";
    return [
      r.name,
      formatNumber(r.value),
      r.unit,
      ratio === null ? "-" : `${formatNumber(ratio)} ${basis}`,
      r.target?.text ?? "-",
      verdict(r, ratio),
    ];
  });
  return markdownTable(header, rows, [false, true, false, true, false, false]);
}

/** A Markdown table with padded columns; `right[k]` aligns column k to the right. */
export function markdownTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  right: readonly boolean[] = [],
): string {
  const widths = header.map((h, k) => Math.max(h.length, ...rows.map((r) => (r[k] ?? "").length)));
  const line = (cells: readonly string[]) =>
    `| ${
      cells.map((c, k) => right[k] ? c.padStart(widths[k]!) : c.padEnd(widths[k]!)).join(" | ")
    } |`;
  const rule = `|${
    widths.map((w, k) => right[k] ? `${"-".repeat(w + 1)}:` : "-".repeat(w + 2))
      .join("|")
  }|`;
  return [line(header), rule, ...rows.map(line)].join("\n");
}
