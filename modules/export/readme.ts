/** The README.txt of an export: columns, units, timezone, quality flags and where the gaps are. */
import { exportParameter, INTERVAL_MS } from "./contract.ts";
import type { ExportFeeder, GapRun, WriteJob } from "./writer.ts";

const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");

/** The text (English: a file analysts share; the UI is translated, the data file is not). */
export function readme(job: WriteJob, feeders: readonly ExportFeeder[], gaps: GapRun[]): string {
  const units = job.parameters.map((key) => {
    const p = exportParameter(key)!;
    return `  ${p.key.padEnd(6)} ${(p.unit || "(no unit)").padEnd(10)} ${p.type}`;
  });
  const level = job.interval === "20s"
    ? "20-second values as measured"
    : `${job.interval} aggregates (voltage and current: RMS of the interval; power, power factor, THD and frequency: mean)`;
  const lines = [
    `GridWatch data export ${job.baseName}`,
    "",
    `Period (UTC): ${iso(job.from)} to ${iso(job.to)} (end excluded)`,
    `Interval: ${job.interval} (${INTERVAL_MS[job.interval] / 1000} s): ${level}`,
    `Time zone of time_local: ${job.timezone}`,
    `Format: ${job.format}${
      job.format === "csv"
        ? ` (UTF-8 with BOM, separator "${job.separator}", decimal mark "${job.decimalMark}")`
        : ""
    }`,
    `Directory structure: ${job.structure}`,
    `Feeders: ${feeders.length}`,
    "",
    ...(job.layout === "wide"
      ? [
        "Columns (wide layout: one row per time, feeder and phase, one column per parameter):",
        "  time_utc    start of the interval, UTC (ISO 8601)",
        "  time_local  the same instant in the customer's time zone",
        "  station     electrical work (transformer station or cabinet) of the node",
        "  node        node name",
        "  feeder_id   feeder identifier (stable across renames)",
        "  feeder      feeder name",
        "  phase       L1, L2, L3 or N (neutral: current only, other columns empty)",
        "  <parameter> (<unit>)  one column per parameter below: the stored value, empty when missing",
        "  quality     the worst of the row: MISSING (a value missing), FLAGGED, or OK",
        "",
      ]
      : [
        "Columns (long layout: one row per time, feeder, phase and parameter):",
        "  time_utc    start of the interval, UTC (ISO 8601)",
        "  time_local  the same instant in the customer's time zone",
        "  station     electrical work (transformer station or cabinet) of the node",
        "  node        node name",
        "  feeder_id   feeder identifier (stable across renames)",
        "  feeder      feeder name",
        "  phase       L1, L2, L3 or N (neutral: current only)",
        "  parameter   see below",
        "  value       the stored value (empty when missing)",
        "  unit        unit of the value",
        "  quality     OK, FLAGGED (aggregate with incomplete or flagged input) or MISSING (gap)",
        "",
      ]),
    "Parameters:",
    ...units,
    ...(job.parameters.some((key) => exportParameter(key)?.pq)
      ? [
        "  Power quality (10-minute records of the cell or folded from its 20-s values): unbalance",
        "  the mean of the interval, pst and plt the highest, harmonics h2..h25 in % of the",
        "  fundamental, the RMS of the 10-minute values at hourly and daily intervals.",
      ]
      : []),
    "",
    "Gaps: every interval of the period has a row for every feeder, phase and parameter; a",
    "missing value is a row with an empty value and quality MISSING. The gaps file (gaps.csv,",
    "gaps.parquet, or the table gaps of the DuckDB file) lists the runs of consecutive missing",
    "intervals: gap_start included, gap_end excluded.",
    "",
  ];
  if (!gaps.length) lines.push("No gaps in this export.");
  else {
    lines.push(
      `Gap runs (${gaps[0]!.total} in all${
        gaps[0]!.total > gaps.length ? `, first ${gaps.length}` : ""
      }):`,
    );
    for (const g of gaps) {
      lines.push(
        `  ${g.station} / ${g.node} / ${g.feeder} ${g.phase} ${g.parameter}: ${g.start} to ${g.end} (${g.slots} intervals)`,
      );
    }
  }
  if (job.format === "duckdb") {
    lines.push(
      "",
      "DuckDB file: tables measurements (the columns above, typed), feeders (series and names)",
      "and gaps. Open it with: duckdb <file>.duckdb",
    );
  }
  return lines.join("\r\n") + "\r\n";
}
