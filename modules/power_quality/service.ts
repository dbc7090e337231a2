/**
 * Power-quality reports (pqm): the electrical works that can be reported on, and the reports of
 * a customer: create (rules of spec 5 and codes 401-403, 501, 505-513), list 12 per page, read,
 * cancel and delete. The work itself runs as a job (jobs.ts); this service only wakes it.
 */
import { and, count, desc, eq, ilike, isNull, type SQL, sql } from "drizzle-orm";
import { AppError, type Db, validationError } from "../../kernel/mod.ts";
import { feederLevel, type NodeDto } from "../grid/mod.ts";
import {
  CANCELLABLE,
  type CreateReportInput,
  DELETABLE,
  periodEnd,
  periodProblem,
  type PqElectricalWorksDto,
  type PqLimits,
  REPORT_PERIOD,
  type ReportAcceptedDto,
  type ReportDetailDto,
  type ReportDto,
  type ReportPageDto,
  REPORTS_PER_PAGE,
  type ReportsQuery,
} from "./contract.ts";
import { type ReportFeeder, reportFiles, type ReportRow, reports } from "./schema.ts";
import type { ReportDirectory } from "./directory.ts";
import { customLabel, type LimitSetsService } from "./limit_sets.ts";

const DAY_MS = 86_400_000;
/** A slot is written a minute after it closes; the job waits a bit more (aggregation every 10 s). */
export const DUE_GRACE_MS = 2 * 60_000;

/** Spec 9 leaves the report limit, the future limit and the data lifetime as parameters. */
export interface ReportLimits {
  /** Code 510: reports per customer. */
  maxReports: number;
  /** Code 513: how far in the future a report may start, days. */
  maxFutureDays: number;
  /** Code 512: how far back a report may start, days (the 10-minute aggregates kept). */
  dataLifetimeDays: number;
}

export const DEFAULT_REPORT_LIMITS: Readonly<ReportLimits> = Object.freeze({
  maxReports: 50,
  maxFutureDays: 30,
  dataLifetimeDays: 400,
});

/** What the service asks of the job runner. */
export interface Wakeable {
  wake(): void;
  cancel(id: string): boolean;
}

/** Who creates a report. */
export interface Caller {
  customerKey: string;
  userId: string;
}

/** Maps a row to its API shape. */
export function toDto(row: ReportRow): ReportDto {
  return {
    key: row.key,
    name: row.name,
    language: row.language,
    node_id: row.nodeId,
    node_name: row.nodeName,
    ew_name: row.ewName,
    feeders: row.feeders.map(({ id, name }) => ({ id, name })),
    start: row.startAt.toISOString(),
    end: row.endAt.toISOString(),
    standard: row.standard,
    limit_set: row.limitSet,
    status: row.status,
    result: row.result,
    stage: row.stage,
    percent: row.percent,
    failure: row.failure,
    created_at: row.createdAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
    has_pdf: row.hasPdf,
  };
}

/** Reports of every customer, each call scoped to one. */
export class ReportsService {
  constructor(
    private readonly db: Db,
    private readonly directory: ReportDirectory,
    private readonly runner: Wakeable,
    private readonly limitSets: LimitSetsService,
    readonly limits: Readonly<ReportLimits> = DEFAULT_REPORT_LIMITS,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The limits the create form mirrors. */
  formLimits(): PqLimits {
    return {
      max_reports: this.limits.maxReports,
      max_future_days: this.limits.maxFutureDays,
      data_lifetime_days: this.limits.dataLifetimeDays,
      min_period_minutes: REPORT_PERIOD.minMinutes,
      max_period_days: REPORT_PERIOD.maxDays,
    };
  }

  /** `GET /pqm/electrical-works`: works, nodes, feeders and each node's latest report. */
  async electricalWorks(customerKey: string): Promise<PqElectricalWorksDto> {
    const nodes = await this.directory.nodes(customerKey);
    const cells = await this.directory.cellsByNode(customerKey);
    const latest = new Map<string, ReportRow>();
    const rows = await this.db.select().from(reports).where(eq(reports.customerKey, customerKey))
      .orderBy(desc(reports.createdAt));
    for (const row of rows) if (!latest.has(row.nodeId)) latest.set(row.nodeId, row);
    const works = new Map<string, PqElectricalWorksDto["electrical_works"][number]>();
    for (const node of nodes) {
      const ew = node.electrical_work;
      const work = works.get(ew.key) ?? { key: ew.key, name: ew.name, nodes: [] };
      works.set(ew.key, work);
      const report = latest.get(node.id);
      work.nodes.push({
        id: node.id,
        name: node.name,
        has_cell: cells.has(node.id),
        feeders: [...node.feeders].sort((a, b) => a.slot - b.slot)
          .map(({ id, name, slot }) => ({ id, name, slot })),
        latest_report: report
          ? {
            key: report.key,
            name: report.name,
            status: report.status,
            result: report.result,
            end: report.endAt.toISOString(),
          }
          : null,
      });
    }
    const electrical_works = [...works.values()].sort((a, b) => a.name.localeCompare(b.name));
    return { electrical_works, limits: this.formLimits() };
  }

  /** `POST /pqm/reports`: checks every rule, stores the report as Scheduled and wakes the jobs. */
  async create(caller: Caller, input: CreateReportInput): Promise<ReportAcceptedDto> {
    const { customerKey } = caller;
    const start = /^\d{4}-\d{2}-\d{2}T/.test(input.start) ? new Date(input.start) : null;
    const end = start && !Number.isNaN(start.getTime()) ? periodEnd(start, input.period) : null;
    const problem = periodProblem(start, end);
    if (problem) throw new AppError(problem);
    const from = start!.getTime();
    const to = end!.getTime();
    const now = this.now().getTime();
    if (from < now - this.limits.dataLifetimeDays * DAY_MS) {
      throw new AppError(512, { limit: this.limits.dataLifetimeDays });
    }
    if (from > now + this.limits.maxFutureDays * DAY_MS) {
      throw new AppError(513, { limit: this.limits.maxFutureDays });
    }
    let limitSet = "EN 50160";
    let overrides = null;
    if (input.standard === "CUSTOM") {
      if (!input.limit_set) {
        throw validationError([{ path: "limit_set", key: "validation.required", params: {} }]);
      }
      // The set as it is now: later edits of the set never change this report.
      const set = await this.limitSets.row(customerKey, input.limit_set);
      limitSet = customLabel(set.name);
      overrides = set.overrides;
    }
    const node = this.directory.freshNode
      ? await this.directory.freshNode(customerKey, input.node)
      : await this.directory.node(customerKey, input.node);
    if (!node) throw new AppError(506);
    const cell = (await this.directory.cellsByNode(customerKey)).get(node.id);
    if (!cell) throw new AppError(505);
    const feeders = pickFeeders(node, input.feeders);
    if (!feeders.length) throw new AppError(508);
    if (from < now) {
      const first = await this.directory.firstData(cell, feeders);
      if (first === null) throw new AppError(526);
      if (from < first) throw new AppError(509);
    }
    // Reports of auto-analyses do not count (a group's weekly run would use the limit up).
    const [existing] = await this.db.select({ n: count() }).from(reports)
      .where(and(eq(reports.customerKey, customerKey), isNull(reports.autoRunKey)));
    if ((existing?.n ?? 0) >= this.limits.maxReports) {
      throw new AppError(510, { limit: this.limits.maxReports });
    }
    await this.#checkName(customerKey, input.name);
    const key = crypto.randomUUID();
    try {
      await this.db.insert(reports).values({
        key,
        customerKey,
        name: input.name,
        language: input.language,
        nodeId: node.id,
        nodeName: node.name,
        ewName: node.electrical_work.name,
        feeders,
        startAt: new Date(from),
        endAt: new Date(to),
        standard: input.standard,
        limitSet,
        limits: overrides,
        status: "SCHEDULED",
        dueAt: new Date(Math.max(now, to + DUE_GRACE_MS)),
        createdBy: caller.userId,
      });
    } catch (error) {
      // Two creations with one name at once: the unique index decides.
      await this.#checkName(customerKey, input.name);
      throw error;
    }
    this.runner.wake();
    return { key, status: "SCHEDULED" };
  }

  async #checkName(customerKey: string, name: string): Promise<void> {
    const [same] = await this.db.select({ key: reports.key }).from(reports).where(and(
      eq(reports.customerKey, customerKey),
      sql`lower(${reports.name}) = lower(${name})`,
    )).limit(1);
    if (same) throw new AppError(501, { name });
  }

  /** `GET /pqm/reports`: newest first, 12 per page. */
  async list(customerKey: string, query: ReportsQuery): Promise<ReportPageDto> {
    const filters: SQL[] = [eq(reports.customerKey, customerKey)];
    if (query.status) filters.push(eq(reports.status, query.status));
    if (query.result) filters.push(eq(reports.result, query.result));
    if (query.node) filters.push(eq(reports.nodeId, query.node));
    if (query.q) filters.push(ilike(reports.name, `%${query.q.replace(/[%_\\]/g, "\\$&")}%`));
    const where = and(...filters);
    const rows = await this.db.select().from(reports).where(where)
      .orderBy(desc(reports.createdAt), desc(reports.key))
      .limit(REPORTS_PER_PAGE).offset(query.page * REPORTS_PER_PAGE);
    const [total] = await this.db.select({ n: count() }).from(reports).where(where);
    return {
      reports: rows.map(toDto),
      page: query.page,
      size: REPORTS_PER_PAGE,
      total: total?.n ?? 0,
      limit: this.limits.maxReports,
    };
  }

  /** A report of the customer; another customer's answers the same 404 as a missing one. */
  async row(customerKey: string, key: string): Promise<ReportRow> {
    if (!/^[\w-]{1,64}$/.test(key)) throw new AppError("common.notFound");
    const [row] = await this.db.select().from(reports)
      .where(and(eq(reports.key, key), eq(reports.customerKey, customerKey)));
    if (!row) throw new AppError("common.notFound");
    return row;
  }

  /** `GET /pqm/reports/{key}`. */
  async get(customerKey: string, key: string): Promise<ReportDetailDto> {
    const row = await this.row(customerKey, key);
    return { ...toDto(row), summary: row.summary };
  }

  /** The stored PDF of a completed report (502 before, 523 when it could not be made). */
  async pdf(customerKey: string, key: string): Promise<{ row: ReportRow; pdf: Uint8Array }> {
    const row = await this.row(customerKey, key);
    if (row.status !== "COMPLETED") throw new AppError(502, { status: row.status });
    const [file] = await this.db.select().from(reportFiles).where(eq(reportFiles.reportKey, key));
    if (!file) throw new AppError(523);
    return { row, pdf: file.pdf };
  }

  /** `POST /pqm/reports/{key}/cancel`: Scheduled or In progress only (502 otherwise). */
  async cancel(customerKey: string, key: string): Promise<ReportDto> {
    const row = await this.row(customerKey, key);
    if (!CANCELLABLE.includes(row.status)) throw new AppError(502, { status: row.status });
    const [changed] = await this.db.update(reports).set({
      status: "CANCELLED",
      stage: null,
      finishedAt: this.now(),
    }).where(and(eq(reports.key, key), sql`${reports.status} IN ('SCHEDULED', 'IN_PROGRESS')`))
      .returning();
    // The job ended between the read and the update.
    if (!changed) throw new AppError(502, { status: (await this.row(customerKey, key)).status });
    this.runner.cancel(key);
    return toDto(changed);
  }

  /** `DELETE /pqm/reports/{key}`: a report that is not running (502: cancel it first). */
  async delete(customerKey: string, key: string): Promise<void> {
    const row = await this.row(customerKey, key);
    if (!DELETABLE.includes(row.status)) throw new AppError(502, { status: row.status });
    await this.db.delete(reports).where(and(
      eq(reports.key, key),
      sql`${reports.status} IN ('COMPLETED', 'FAILED', 'CANCELLED')`,
    ));
  }
}

/** The requested feeders of the node (in slot order), or its first feeder by default. */
function pickFeeders(
  node: NodeDto,
  ids: readonly string[] | undefined,
): ReportFeeder[] {
  const sorted = [...node.feeders].sort((a, b) => a.slot - b.slot);
  const chosen = ids?.length ? sorted.filter((f) => ids.includes(f.id)) : sorted.slice(0, 1);
  if (ids?.length && chosen.length !== new Set(ids).size) {
    throw new AppError("grid.elementNotFound");
  }
  return chosen.map((f) => ({ id: f.id, name: f.name, slot: f.slot, level: feederLevel(f) }));
}
