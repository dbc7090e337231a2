/**
 * The CSV of a completed report (docs/power-quality-reports.md, "CSV columns"): one row per
 * 10-minute interval and feeder with the values the evaluation read, then, after an empty line,
 * the results table (one row per feeder, parameter and phase). Made on request from the stored
 * aggregates (one columnar load) and the stored summary.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { type ComplianceInput, loadComplianceInputs } from "../../core/mod.ts";
import { AppError } from "../../kernel/mod.ts";
import { loadStart } from "./analysis.ts";
import { feederNominal, type ReportDirectory } from "./directory.ts";
import type { ReportRow } from "./schema.ts";

const SLOT_MS = 600_000;
const PHASES = ["l1", "l2", "l3"];
const ORDERS = Array.from({ length: 24 }, (_, k) => k + 2);

/** The interval columns, in order. */
export const INTERVAL_COLUMNS = [
  "interval_start_utc",
  "feeder",
  "flagged",
  ...PHASES.map((p) => `u_${p}_v`),
  ...PHASES.map((p) => `thd_${p}_pct`),
  "f_min_hz",
  "f_max_hz",
  "unbalance_pct",
  ...PHASES.map((p) => `plt_${p}`),
  ...ORDERS.flatMap((o) => PHASES.map((p) => `h${o}_${p}_pct`)),
];

/** The results columns, in order. */
export const RESULT_COLUMNS = [
  "feeder",
  "parameter",
  "phase",
  "limit",
  "share_pct",
  "value",
  "max",
  "n",
  "n1",
  "n2",
  "flagged",
  "missing",
  "result",
];

/** A field as CSV: numbers with a dot, text quoted when it needs it. */
function field(value: string | number | null): string {
  if (value === null || (typeof value === "number" && Number.isNaN(value))) return "";
  if (typeof value === "number") return String(Math.round(value * 1e4) / 1e4);
  return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Renders the CSV of a report. */
export class ReportCsv {
  constructor(
    private readonly analytics: DuckDBConnection,
    private readonly directory: ReportDirectory,
  ) {}

  async render(row: ReportRow): Promise<string> {
    if (row.status !== "COMPLETED" || !row.summary) {
      throw new AppError(502, { status: row.status });
    }
    try {
      return await this.#render(row);
    } catch (error) {
      throw new AppError(524, {}, error);
    }
  }

  async #render(row: ReportRow): Promise<string> {
    const from = row.startAt.getTime();
    const to = row.endAt.getTime();
    const cellId = (await this.directory.cellsByNode(row.customerKey)).get(row.nodeId);
    const customer = await this.directory.customer(row.customerKey);
    const origin = loadStart(from);
    const inputs: ComplianceInput[] = cellId
      ? await loadComplianceInputs(
        this.analytics,
        row.feeders.map((f) => ({
          phases: this.directory.series(cellId, f.slot),
          nominalVoltage: feederNominal(customer, f),
          nominalFrequency: customer.nominalFrequency,
        })),
        new Date(origin),
        new Date(to),
      )
      : [];
    const lines = [INTERVAL_COLUMNS.join(",")];
    row.feeders.forEach((feeder, k) => {
      const input = inputs[k];
      for (let t = from; t < to; t += SLOT_MS) {
        const i = (t - origin) / SLOT_MS;
        const at = (s: ArrayLike<number> | undefined) => (s ? s[i] ?? NaN : NaN);
        const block = Math.floor(i / 12);
        lines.push([
          new Date(t).toISOString(),
          field(feeder.name),
          input?.flagged[i] ? 1 : 0,
          ...[0, 1, 2].map((p) => field(at(input?.u[p]))),
          ...[0, 1, 2].map((p) => field(at(input?.thd[p]))),
          field(at(input?.fMin)),
          field(at(input?.fMax)),
          field(at(input?.unbalance)),
          ...[0, 1, 2].map((p) => field(input?.plt[p]?.[block] ?? NaN)),
          ...ORDERS.flatMap((o) => [0, 1, 2].map((p) => field(at(input?.h[o - 2]?.[p])))),
        ].join(","));
      }
    });
    lines.push("", RESULT_COLUMNS.join(","));
    for (const feeder of row.summary ?? []) {
      for (const p of feeder.parameters) {
        for (const phase of p.phases) {
          lines.push([
            field(feeder.feeder_name),
            p.parameter,
            phase.phase ?? "",
            field(p.limit),
            field(p.share_pct),
            field(phase.value),
            field(phase.max),
            phase.n,
            phase.n1,
            field(phase.n2),
            phase.flagged,
            phase.missing,
            phase.passed === null ? "NOT_EVALUABLE" : phase.passed ? "PASSED" : "NOT_PASSED",
          ].join(","));
        }
      }
    }
    return lines.join("\r\n") + "\r\n";
  }
}
