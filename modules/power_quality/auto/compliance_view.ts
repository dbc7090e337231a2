/**
 * The grid-wide compliance's reads (`GET /pqm/compliance`: the week's counts and one page of
 * its nodes with a verdict filter, paged in SQL; `GET /pqm/compliance/map`: every node of the
 * week with its place, for the map) and the administrators' "evaluate again".
 */
import { and, asc, count, desc, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import { AppError, type Db } from "../../../kernel/mod.ts";
import { reports } from "../schema.ts";
import {
  COMPLIANCE_PAGE_SIZE,
  type ComplianceDto,
  type ComplianceMapDto,
  type ComplianceNodeDto,
  type ComplianceVerdict,
} from "./contract.ts";
import { isoWeekLabel, lastCompleteWeek, WEEK_MS } from "./schedule.ts";
import { complianceVerdicts, type ComplianceWeekRow, complianceWeeks } from "./schema.ts";

type WeekDto = NonNullable<ComplianceDto["week"]>;

const verdictIs: Record<ComplianceVerdict, SQL | undefined> = {
  ALL: undefined,
  PASSED: eq(complianceVerdicts.passed, true),
  NOT_PASSED: eq(complianceVerdicts.passed, false),
  NONE: isNull(complianceVerdicts.passed),
};

export class ComplianceService {
  readonly #now: () => Date;

  constructor(
    private readonly db: Db,
    private readonly runner: { wake(): void },
    now?: () => Date,
  ) {
    this.#now = now ?? (() => new Date());
  }

  /** The customer's weeks (newest first) and the wanted one (default: the newest evaluated). */
  async #week(customerKey: string, week?: string) {
    const weeks = await this.db.select().from(complianceWeeks)
      .where(eq(complianceWeeks.customerKey, customerKey))
      .orderBy(desc(complianceWeeks.weekStart)).limit(52);
    const wanted = week ? Date.parse(`${week}T00:00:00Z`) : null;
    const row: ComplianceWeekRow | undefined = wanted !== null
      ? weeks.find((w) => w.weekStart.getTime() === wanted)
      : weeks.find((w) => w.status === "DONE") ?? weeks[0];
    if (wanted !== null && !row) throw new AppError("common.notFound");
    const list = weeks.map((w) => w.weekStart.toISOString().slice(0, 10));
    if (!row) return { row: null, list, dto: null };
    const from = row.weekStart;
    const dto: WeekDto = {
      label: isoWeekLabel(from.getTime()),
      from: from.toISOString(),
      to: new Date(from.getTime() + WEEK_MS).toISOString(),
      status: row.status,
      evaluated_at: row.finishedAt?.toISOString() ?? null,
    };
    return { row, list, dto };
  }

  /** The newest completed report of each of `ids` over exactly the week starting at `from`. */
  async #reports(customerKey: string, from: Date, ids: string[]): Promise<Map<string, string>> {
    const made = ids.length
      ? await this.db.select({ key: reports.key, node: reports.nodeId }).from(reports).where(and(
        eq(reports.customerKey, customerKey),
        eq(reports.status, "COMPLETED"),
        eq(reports.startAt, from),
        eq(reports.endAt, new Date(from.getTime() + WEEK_MS)),
        inArray(reports.nodeId, ids),
      )).orderBy(desc(reports.finishedAt))
      : [];
    const reportOf = new Map<string, string>();
    for (const r of made) if (!reportOf.has(r.node)) reportOf.set(r.node, r.key);
    return reportOf;
  }

  /** `GET /pqm/compliance`: a week's counts and one page of its nodes with `verdict`. */
  async get(
    customerKey: string,
    query: { week?: string; verdict?: ComplianceVerdict; page?: number } = {},
  ): Promise<ComplianceDto> {
    const page = query.page ?? 0;
    const size = COMPLIANCE_PAGE_SIZE;
    const { row, list, dto } = await this.#week(customerKey, query.week);
    const empty = { passed: 0, not_passed: 0, not_evaluable: 0, page, size, total: 0 };
    if (!row) return { week: null, weeks: list, nodes: [], ...empty };
    const ofWeek = and(
      eq(complianceVerdicts.customerKey, customerKey),
      eq(complianceVerdicts.weekStart, row.weekStart),
    );
    const counts = await this.db.select({ passed: complianceVerdicts.passed, n: count() })
      .from(complianceVerdicts).where(ofWeek).groupBy(complianceVerdicts.passed);
    const countOf = (v: boolean | null) => counts.find((c) => c.passed === v)?.n ?? 0;
    const tally = {
      passed: countOf(true),
      not_passed: countOf(false),
      not_evaluable: countOf(null),
    };
    const verdict = query.verdict ?? "ALL";
    const total = verdict === "ALL"
      ? tally.passed + tally.not_passed + tally.not_evaluable
      : verdict === "PASSED"
      ? tally.passed
      : verdict === "NOT_PASSED"
      ? tally.not_passed
      : tally.not_evaluable;
    const verdicts = await this.db.select().from(complianceVerdicts)
      .where(and(ofWeek, verdictIs[verdict]))
      .orderBy(asc(complianceVerdicts.nodeName), asc(complianceVerdicts.nodeId))
      .limit(size).offset(page * size);
    const reportOf = await this.#reports(
      customerKey,
      row.weekStart,
      verdicts.map((v) => v.nodeId),
    );
    const nodes: ComplianceNodeDto[] = verdicts.map((v) => ({
      node_id: v.nodeId,
      node_name: v.nodeName,
      ew_name: v.ewName,
      lv_group: v.lvGroup,
      latitude: v.latitude,
      longitude: v.longitude,
      passed: v.passed,
      failed: v.failed,
      availability_pct: Math.round(v.availabilityPct * 100) / 100,
      feeders: v.feeders,
      report_key: reportOf.get(v.nodeId) ?? null,
    }));
    return { week: dto, weeks: list, nodes, ...tally, page, size, total };
  }

  /** `GET /pqm/compliance/map`: every node of the week with its verdict and place. */
  async map(customerKey: string, week?: string): Promise<ComplianceMapDto> {
    const { row, dto } = await this.#week(customerKey, week);
    if (!row) return { week: null, nodes: [] };
    const verdicts = await this.db.select({
      nodeId: complianceVerdicts.nodeId,
      nodeName: complianceVerdicts.nodeName,
      ewName: complianceVerdicts.ewName,
      latitude: complianceVerdicts.latitude,
      longitude: complianceVerdicts.longitude,
      passed: complianceVerdicts.passed,
      failed: complianceVerdicts.failed,
    }).from(complianceVerdicts).where(and(
      eq(complianceVerdicts.customerKey, customerKey),
      eq(complianceVerdicts.weekStart, row.weekStart),
    )).orderBy(asc(complianceVerdicts.nodeName), asc(complianceVerdicts.nodeId));
    const reportOf = await this.#reports(
      customerKey,
      row.weekStart,
      verdicts.map((v) => v.nodeId),
    );
    return {
      week: dto,
      nodes: verdicts.map((v) => ({
        node_id: v.nodeId,
        node_name: v.nodeName,
        ew_name: v.ewName,
        latitude: v.latitude,
        longitude: v.longitude,
        passed: v.passed,
        failed: v.failed,
        report_key: reportOf.get(v.nodeId) ?? null,
      })),
    };
  }

  /**
   * `POST /pqm/compliance/evaluate`: the last complete week evaluated again now (while it is
   * being evaluated, the answer says RUNNING and nothing changes).
   */
  async evaluate(customerKey: string): Promise<{ week: string; status: "PENDING" | "RUNNING" }> {
    const now = this.#now();
    const weekStart = new Date(lastCompleteWeek(now.getTime()).from);
    const [row] = await this.db.insert(complianceWeeks).values({
      customerKey,
      weekStart,
      status: "PENDING",
      dueAt: now,
    }).onConflictDoUpdate({
      target: [complianceWeeks.customerKey, complianceWeeks.weekStart],
      set: { status: "PENDING", dueAt: now, attempts: 0, failure: null },
      setWhere: sql`${complianceWeeks.status} <> 'RUNNING'`,
    }).returning();
    const week = weekStart.toISOString().slice(0, 10);
    if (!row) return { week, status: "RUNNING" };
    this.runner.wake();
    return { week, status: "PENDING" };
  }
}
