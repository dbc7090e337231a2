/**
 * The CSV of a completed report (docs/power-quality-reports.md, "CSV columns"): one row per
 * 10-minute interval and feeder with the values the evaluation read, then, after an empty line,
 * the results table (one row per feeder, parameter and phase). Made on request from the stored
 * aggregates (a columnar load per week and feeder, streamed) and the stored summary.
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

/** Loads the compliance inputs of some feeders over `[from, to)` (core `loadComplianceInputs`). */
export type InputLoader = (
  analytics: DuckDBConnection,
  specs: Parameters<typeof loadComplianceInputs>[1],
  from: Date,
  to: Date,
) => Promise<ComplianceInput[]>;

/** The interval rows are loaded and written one week of one feeder at a time. */
const CHUNK_MS = 7 * 86_400_000;

/**
 * Renders the CSV of a report as a stream: one week of one feeder is loaded, written and handed
 * to the client before the next is loaded, so a year of six feeders never sits in memory. The
 * header and the first week are made before the answer starts: a failure there is a 524 with no
 * CSV at all. A failure later errors the stream, which aborts the HTTP answer (the client sees
 * a failed download, never a file that looks complete: a complete file ends with the results).
 */
export class ReportCsv {
  constructor(
    private readonly analytics: DuckDBConnection,
    private readonly directory: ReportDirectory,
    private readonly load: InputLoader = loadComplianceInputs,
    private readonly chunkMs = CHUNK_MS,
  ) {}

  /** The CSV as a stream of UTF-8 bytes (502 before completion, 524 when it cannot start). */
  async stream(row: ReportRow): Promise<ReadableStream<Uint8Array>> {
    if (row.status !== "COMPLETED" || !row.summary) {
      throw new AppError(502, { status: row.status });
    }
    const parts = this.#parts(row);
    const encoder = new TextEncoder();
    const first: string[] = [];
    try {
      // The header and the first loaded chunk: what fails early fails before the answer.
      for (let k = 0; k < 2; k++) {
        const next = await parts.next();
        if (next.done) break;
        first.push(next.value);
      }
    } catch (error) {
      throw new AppError(524, {}, error);
    }
    return new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        const buffered = first.shift();
        if (buffered !== undefined) {
          controller.enqueue(encoder.encode(buffered));
          return;
        }
        try {
          const next = await parts.next();
          if (next.done) controller.close();
          else controller.enqueue(encoder.encode(next.value));
        } catch (error) {
          controller.error(new AppError(524, {}, error));
        }
      },
      cancel: async () => {
        await parts.return(undefined);
      },
    }, { highWaterMark: 1 });
  }

  /** The whole CSV as text (tests and small reports). */
  async render(row: ReportRow): Promise<string> {
    return await new Response(await this.stream(row)).text();
  }

  /** The CSV in pieces: the header line, one piece per week and feeder, the results table. */
  async *#parts(row: ReportRow): AsyncGenerator<string> {
    const from = row.startAt.getTime();
    const to = row.endAt.getTime();
    const cellId = (await this.directory.cellsByNode(row.customerKey)).get(row.nodeId);
    const customer = await this.directory.customer(row.customerKey);
    yield INTERVAL_COLUMNS.join(",") + "\r\n";
    const origin = loadStart(from);
    for (const feeder of row.feeders) {
      const spec = cellId
        ? {
          phases: this.directory.series(cellId, feeder.slot),
          nominalVoltage: feederNominal(customer, feeder),
          nominalFrequency: customer.nominalFrequency,
        }
        : null;
      // Chunks on the 2-hour grid of the load start, so Plt blocks stay whole.
      for (let a = origin; a < to; a += this.chunkMs) {
        const b = Math.min(to, a + this.chunkMs);
        const input = spec
          ? (await this.load(this.analytics, [spec], new Date(a), new Date(b)))[0]
          : undefined;
        yield intervalLines(feeder.name, input, a, Math.max(from, a), b);
      }
    }
    const lines = ["", RESULT_COLUMNS.join(",")];
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
    yield lines.join("\r\n") + "\r\n";
  }
}

/** The interval rows `[from, to)` of an input loaded from `origin`. */
function intervalLines(
  feeder: string,
  input: ComplianceInput | undefined,
  origin: number,
  from: number,
  to: number,
): string {
  const lines: string[] = [];
  for (let t = from; t < to; t += SLOT_MS) {
    const i = (t - origin) / SLOT_MS;
    const at = (s: ArrayLike<number> | undefined) => (s ? s[i] ?? NaN : NaN);
    const block = Math.floor(i / 12);
    lines.push([
      new Date(t).toISOString(),
      field(feeder),
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
  return lines.length ? lines.join("\r\n") + "\r\n" : "";
}
