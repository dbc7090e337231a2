/**
 * A report as a job of the kernel's JobRunner: the reports table is the queue. Claim moves due
 * Scheduled reports to In progress atomically; the run loads the period once, evaluates it,
 * writes the PDF and completes the report; failures keep a catalogue reason; a report a dead
 * process left In progress is resumed (run again from the start: the work is idempotent) up to
 * MAX_ATTEMPTS runs, then failed with `pq.reportInterrupted`. Every end publishes
 * `pq.reportFinished` (notifications turn it into a POWER_QUALITY notification).
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { and, asc, eq, inArray, lte, sql } from "drizzle-orm";
import {
  ComplianceError,
  type ComplianceInput,
  loadComplianceInputs,
  PeriodError,
} from "../../core/mod.ts";
import {
  AppError,
  type Db,
  type EventBus,
  type JobContext,
  type JobQueue,
  type Logger,
} from "../../kernel/mod.ts";
import { evaluateFeeder, loadStart } from "./analysis.ts";
import { limitsOf } from "./limit_sets.ts";
import type { FeederSummaryDto } from "./contract.ts";
import { feederNominal, type ReportDirectory } from "./directory.ts";
import { MAX_LISTED_EVENTS, renderReportPdf } from "./pdf.ts";
import { type Failure, reportFiles, type ReportRow, reports } from "./schema.ts";

/** Runs of one report before a restart gives up on it. */
export const MAX_ATTEMPTS = 3;

/** A claimed report. */
export type ReportJob = ReportRow & { id: string };

/** What the job needs. */
export interface ReportJobDeps {
  db: Db;
  analytics: DuckDBConnection;
  directory: ReportDirectory;
  bus: EventBus;
  logger: Logger;
  now?: () => Date;
}

/** The catalogue reason of an error that ended a run. */
export function failureOf(error: unknown): Failure {
  if (error instanceof AppError) {
    return { key: error.entry.key, code: error.entry.code ?? null, params: error.params };
  }
  if (error instanceof PeriodError || error instanceof ComplianceError) {
    return { key: "pq.complianceLimitsError", code: 522, params: {} };
  }
  return { key: "common.internal", code: null, params: {} };
}

/** The reports table as a JobQueue. */
export class ReportJobs implements JobQueue<ReportJob> {
  readonly #now: () => Date;

  constructor(private readonly deps: ReportJobDeps) {
    this.#now = deps.now ?? (() => new Date());
  }

  async claim(limit: number, now: Date): Promise<ReportJob[]> {
    const { db } = this.deps;
    const due = db.select({ key: reports.key }).from(reports)
      .where(and(eq(reports.status, "SCHEDULED"), lte(reports.dueAt, now)))
      .orderBy(asc(reports.dueAt)).limit(limit).for("update", { skipLocked: true });
    const rows = await db.update(reports).set({
      status: "IN_PROGRESS",
      stage: "LOADING",
      percent: 0,
      attempts: sql`${reports.attempts} + 1`,
      startedAt: now,
    }).where(and(inArray(reports.key, due), eq(reports.status, "SCHEDULED"))).returning();
    return rows.map((row) => ({ ...row, id: row.key }));
  }

  async saveProgress(job: ReportJob, percent: number, stage?: string): Promise<void> {
    await this.deps.db.update(reports).set({
      percent: Math.round(percent),
      ...(stage ? { stage: stage as ReportRow["stage"] } : {}),
    }).where(and(eq(reports.key, job.key), eq(reports.status, "IN_PROGRESS")));
  }

  async run(job: ReportJob, ctx: JobContext): Promise<void> {
    const { directory, analytics, db } = this.deps;
    const check = () => ctx.signal.throwIfAborted();
    ctx.progress(1, "LOADING");
    const node = directory.freshNode
      ? await directory.freshNode(job.customerKey, job.nodeId)
      : await directory.node(job.customerKey, job.nodeId);
    if (!node) throw new AppError(514);
    // A feeder of the report no longer at its slot of the node: the cell is not configured for it.
    const slots = new Map(node.feeders.map((f) => [f.id, f.slot]));
    if (job.feeders.some((f) => slots.get(f.id) !== f.slot)) throw new AppError(508);
    const cellId = (await directory.cellsByNode(job.customerKey)).get(job.nodeId);
    if (!cellId) throw new AppError(505);
    const customer = await directory.customer(job.customerKey);
    const from = job.startAt.getTime();
    const to = job.endAt.getTime();
    const series = job.feeders.map((f) => directory.series(cellId, f.slot));
    if (series.every((s) => s.every((id) => id === undefined))) throw new AppError(526);
    const inputs: ComplianceInput[] = await loadComplianceInputs(
      analytics,
      series.map((phases, k) => ({
        phases,
        nominalVoltage: feederNominal(customer, job.feeders[k]!),
        nominalFrequency: customer.nominalFrequency,
      })),
      new Date(loadStart(from)),
      new Date(to),
    );
    check();
    ctx.progress(40, "EVALUATING");
    const limits = limitsOf(job.limits, job.limitSet);
    const summary: FeederSummaryDto[] = [];
    for (const [k, feeder] of job.feeders.entries()) {
      summary.push(evaluateFeeder(feeder, inputs[k]!, from, to, limits).summary);
      check();
      ctx.progress(40 + (30 * (k + 1)) / job.feeders.length, "EVALUATING");
    }
    if (summary.every((f) => f.parameters[0]!.n === 0)) throw new AppError(526);
    const passed = summary.every((f) => f.passed === true);
    ctx.progress(75, "PDF");
    const events = await directory.events?.(
      job.customerKey,
      job.nodeId,
      job.startAt,
      job.endAt,
      MAX_LISTED_EVENTS,
    ) ?? null;
    const logo = await directory.logo?.(job.customerKey) ?? null;
    let pdf: Uint8Array;
    try {
      pdf = await renderReportPdf({ report: job, customer, summary, inputs, passed, events, logo });
    } catch (error) {
      throw new AppError(523, {}, error);
    }
    check();
    const finished = await db.transaction(async (tx) => {
      const [row] = await tx.update(reports).set({
        status: "COMPLETED",
        result: passed ? "PASSED" : "NOT_PASSED",
        stage: "DONE",
        percent: 100,
        summary,
        hasPdf: true,
        failure: null,
        finishedAt: this.#now(),
      }).where(and(eq(reports.key, job.key), eq(reports.status, "IN_PROGRESS"))).returning();
      if (!row) return null; // cancelled meanwhile
      await tx.insert(reportFiles).values({ reportKey: job.key, pdf })
        .onConflictDoUpdate({ target: reportFiles.reportKey, set: { pdf } });
      return row;
    });
    if (finished) await this.#announce(finished);
  }

  async fail(job: ReportJob, error: unknown): Promise<void> {
    const failure = failureOf(error);
    if (failure.code === null) this.deps.logger.error("A report failed", { key: job.key, error });
    const [row] = await this.deps.db.update(reports).set({
      status: "FAILED",
      failure,
      stage: null,
      finishedAt: this.#now(),
    }).where(and(eq(reports.key, job.key), eq(reports.status, "IN_PROGRESS"))).returning();
    if (row) await this.#announce(row);
  }

  async recover(): Promise<void> {
    const { db } = this.deps;
    const now = this.#now();
    await db.update(reports).set({ status: "SCHEDULED", stage: null, percent: 0, dueAt: now })
      .where(and(eq(reports.status, "IN_PROGRESS"), sql`${reports.attempts} < ${MAX_ATTEMPTS}`));
    const failed = await db.update(reports).set({
      status: "FAILED",
      stage: null,
      failure: { key: "pq.reportInterrupted", code: null, params: { attempts: MAX_ATTEMPTS } },
      finishedAt: now,
    }).where(eq(reports.status, "IN_PROGRESS")).returning();
    for (const row of failed) await this.#announce(row);
  }

  /** Publishes the end of a report (completed, failed or cancelled). */
  async #announce(row: ReportRow): Promise<void> {
    await this.deps.bus.publish("pq.reportFinished", {
      customerKey: row.customerKey,
      reportKey: row.key,
      reportName: row.name,
      nodeId: row.nodeId,
      nodeName: row.nodeName,
      electricalWorkName: row.ewName,
      state: row.status === "COMPLETED"
        ? "DONE"
        : row.status === "CANCELLED"
        ? "CANCELLED"
        : "FAILED",
      status: row.status === "COMPLETED" ? row.result ?? "" : row.failure?.key ?? row.status,
      start: row.startAt.toISOString(),
      at: (row.finishedAt ?? this.#now()).toISOString(),
    });
  }
}
