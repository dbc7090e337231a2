/**
 * Auto-analyses of a customer (#auto-analyses): create (codes 505, 506, 513, 520), change,
 * pause, resume, delete and "run now" under the status rules of the contract (503 otherwise),
 * and the history of runs 12 per page with the reports each made. The runs themselves are jobs
 * (runs.ts); this service only queues and wakes them.
 */
import { and, asc, count, desc, eq, inArray, sql } from "drizzle-orm";
import { AppError, type Db, validationError } from "../../../kernel/mod.ts";
import type { StationGroupDto } from "../../grid/mod.ts";
import type { ReportDirectory } from "../directory.ts";
import { customLabel, type LimitSetsService } from "../limit_sets.ts";
import { reports } from "../schema.ts";
import type { Caller, ReportLimits, Wakeable } from "../service.ts";
import {
  type AutoAction,
  type AutoAnalysesDto,
  type AutoAnalysisDto,
  type AutoAnalysisInput,
  type AutoRunDto,
  type AutoRunPageDto,
  RUNS_PER_PAGE,
} from "./contract.ts";
import {
  allowed,
  beyondDataLifetime,
  firstRun,
  isoWeekLabel,
  lastCompleteWeek,
  nextRun,
  tooFarAhead,
  WEEK_MS,
} from "./schedule.ts";
import { autoAnalyses, type AutoAnalysisRow, type AutoRunRow, autoRuns } from "./schema.ts";

/** What the service reads of the grid. */
export interface AutoDeps {
  db: Db;
  directory: ReportDirectory;
  structure(customerKey: string): Promise<readonly StationGroupDto[]>;
  limitSets: LimitSetsService;
  limits: Readonly<ReportLimits>;
  /** The runs' job runner. */
  runs: Wakeable;
  now?: () => Date;
}

/** Maps a row to its API shape. */
export function autoDto(row: AutoAnalysisRow): AutoAnalysisDto {
  return {
    key: row.key,
    name: row.name,
    language: row.language,
    scope: row.scope,
    nodes: row.nodes,
    group: row.groupId ? { id: row.groupId, name: row.groupName ?? "" } : null,
    standard: row.standard,
    limit_set: row.limitSet,
    limit_set_key: row.limitSetKey,
    weekday: row.weekday,
    hour: row.hour,
    timezone: row.timezone,
    start: row.startDate,
    status: row.status,
    next_run: row.nextRunAt?.toISOString() ?? null,
    last_run: row.lastRunAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

/** The LV group or MV feeder group `id` of a structure, or null. */
export function findGroup(
  structure: readonly StationGroupDto[],
  scope: "LV_GROUP" | "MV_GROUP",
  id: string,
) {
  for (const station of structure) {
    for (const mv of station.mv_feeder_groups) {
      if (scope === "MV_GROUP" && mv.id === id) {
        return { id, name: mv.name, nodes: mv.lv_groups.flatMap((l) => l.nodes) };
      }
      for (const lv of mv.lv_groups) {
        if (scope === "LV_GROUP" && lv.id === id) return { id, name: lv.name, nodes: lv.nodes };
      }
    }
  }
  return null;
}

/** Auto-analyses of every customer, each call scoped to one. */
export class AutoAnalysesService {
  readonly #now: () => Date;

  constructor(private readonly deps: AutoDeps) {
    this.#now = deps.now ?? (() => new Date());
  }

  /** `GET /pqm/auto-analyses`: by name, with the limits the form mirrors. */
  async list(customerKey: string): Promise<AutoAnalysesDto> {
    const rows = await this.deps.db.select().from(autoAnalyses)
      .where(eq(autoAnalyses.customerKey, customerKey)).orderBy(asc(autoAnalyses.name));
    const customer = await this.deps.directory.customer(customerKey);
    return {
      auto_analyses: rows.map(autoDto),
      data_lifetime_days: this.deps.limits.dataLifetimeDays,
      max_future_days: this.deps.limits.maxFutureDays,
      timezone: customer.timezone,
    };
  }

  async row(customerKey: string, key: string): Promise<AutoAnalysisRow> {
    if (!/^[\w-]{1,64}$/.test(key)) throw new AppError("common.notFound");
    const [row] = await this.deps.db.select().from(autoAnalyses)
      .where(and(eq(autoAnalyses.key, key), eq(autoAnalyses.customerKey, customerKey)));
    if (!row) throw new AppError("common.notFound");
    return row;
  }

  /** Checks an input and gives the columns it sets (not the status). */
  async #columns(customerKey: string, input: AutoAnalysisInput, checkStart: boolean) {
    const { directory } = this.deps;
    const customer = await directory.customer(customerKey);
    const schedule = { weekday: input.weekday, hour: input.hour, timezone: customer.timezone };
    const first = firstRun(schedule, input.start);
    const now = this.#now().getTime();
    if (checkStart && beyondDataLifetime(first, now, this.deps.limits.dataLifetimeDays)) {
      throw new AppError(520, { limit: this.deps.limits.dataLifetimeDays });
    }
    if (tooFarAhead(first, now, this.deps.limits.maxFutureDays)) {
      throw new AppError(513, { limit: this.deps.limits.maxFutureDays });
    }
    let nodes: { id: string; name: string }[] = [];
    let group: { id: string; name: string } | null = null;
    if (input.scope === "NODES") {
      const cells = await directory.cellsByNode(customerKey);
      const all = new Map((await directory.nodes(customerKey)).map((n) => [n.id, n]));
      for (const id of new Set(input.nodes)) {
        const node = all.get(id);
        if (!node) throw new AppError(506);
        if (!cells.has(id)) throw new AppError(505);
        nodes.push({ id, name: node.name });
      }
    } else {
      const found = findGroup(await this.deps.structure(customerKey), input.scope, input.group!);
      if (!found) throw new AppError("grid.elementNotFound");
      group = { id: found.id, name: found.name };
      nodes = [];
    }
    let limitSet = "EN 50160";
    let limitSetKey: string | null = null;
    let limits = null;
    if (input.standard === "CUSTOM") {
      // The set as it is now: later edits of the set change the analysis only when saved again.
      const set = await this.deps.limitSets.row(customerKey, input.limit_set!);
      limitSet = customLabel(set.name);
      limitSetKey = set.key;
      limits = set.overrides;
    }
    return {
      first,
      values: {
        name: input.name,
        language: input.language,
        scope: input.scope,
        nodes,
        groupId: group?.id ?? null,
        groupName: group?.name ?? null,
        standard: input.standard,
        limitSet,
        limitSetKey,
        limits,
        weekday: input.weekday,
        hour: input.hour,
        timezone: customer.timezone,
        startDate: input.start,
      },
    };
  }

  async #checkName(customerKey: string, name: string, except?: string): Promise<void> {
    const [same] = await this.deps.db.select({ key: autoAnalyses.key }).from(autoAnalyses)
      .where(and(
        eq(autoAnalyses.customerKey, customerKey),
        sql`lower(${autoAnalyses.name}) = lower(${name})`,
        except ? sql`${autoAnalyses.key} <> ${except}` : undefined,
      )).limit(1);
    if (same) {
      throw validationError([{ path: "name", key: "pq.autoAnalysisExists", params: { name } }]);
    }
  }

  /** `POST /pqm/auto-analyses`: stored ACTIVE, first due at its first run (maybe past). */
  async create(caller: Caller, input: AutoAnalysisInput): Promise<AutoAnalysisDto> {
    const { first, values } = await this.#columns(caller.customerKey, input, true);
    await this.#checkName(caller.customerKey, input.name);
    const [row] = await this.deps.db.insert(autoAnalyses).values({
      key: crypto.randomUUID(),
      customerKey: caller.customerKey,
      ...values,
      status: "ACTIVE",
      nextRunAt: new Date(first),
      createdBy: caller.userId,
    }).returning();
    this.deps.runs.wake();
    return autoDto(row!);
  }

  /** Code 503 unless the analysis' status allows `action`. */
  #require(row: AutoAnalysisRow, action: AutoAction): void {
    if (!allowed(action, row.status)) {
      throw new AppError(503, { status: row.status, action });
    }
  }

  /** `PUT /pqm/auto-analyses/{key}`: a paused analysis (503 otherwise). */
  async update(
    customerKey: string,
    key: string,
    input: AutoAnalysisInput,
  ): Promise<AutoAnalysisDto> {
    const row = await this.row(customerKey, key);
    this.#require(row, "edit");
    const { values } = await this.#columns(customerKey, input, input.start !== row.startDate);
    await this.#checkName(customerKey, input.name, key);
    const [changed] = await this.deps.db.update(autoAnalyses)
      .set({ ...values, updatedAt: this.#now() })
      .where(and(eq(autoAnalyses.key, key), eq(autoAnalyses.status, "PAUSED"))).returning();
    if (!changed) this.#require(await this.row(customerKey, key), "edit");
    return autoDto(changed!);
  }

  /** `POST /pqm/auto-analyses/{key}/pause`: an active analysis stops being due. */
  async pause(customerKey: string, key: string): Promise<AutoAnalysisDto> {
    this.#require(await this.row(customerKey, key), "pause");
    const [row] = await this.deps.db.update(autoAnalyses)
      .set({ status: "PAUSED", nextRunAt: null, updatedAt: this.#now() })
      .where(and(eq(autoAnalyses.key, key), eq(autoAnalyses.status, "ACTIVE"))).returning();
    if (!row) this.#require(await this.row(customerKey, key), "pause");
    return autoDto(row!);
  }

  /**
   * `POST /pqm/auto-analyses/{key}/resume`: due again at its next run from now (the weeks it was
   * paused are not caught up), or at its first run when that is still ahead.
   */
  async resume(customerKey: string, key: string): Promise<AutoAnalysisDto> {
    const current = await this.row(customerKey, key);
    this.#require(current, "resume");
    const now = this.#now().getTime();
    const schedule = current;
    const next = Math.max(nextRun(schedule, now), firstRun(schedule, current.startDate));
    const [row] = await this.deps.db.update(autoAnalyses)
      .set({ status: "ACTIVE", nextRunAt: new Date(next), updatedAt: this.#now() })
      .where(and(eq(autoAnalyses.key, key), eq(autoAnalyses.status, "PAUSED"))).returning();
    if (!row) this.#require(await this.row(customerKey, key), "resume");
    this.deps.runs.wake();
    return autoDto(row!);
  }

  /** `DELETE /pqm/auto-analyses/{key}`: a paused analysis and its history; reports stay. */
  async delete(customerKey: string, key: string): Promise<void> {
    this.#require(await this.row(customerKey, key), "delete");
    const deleted = await this.deps.db.delete(autoAnalyses)
      .where(and(eq(autoAnalyses.key, key), eq(autoAnalyses.status, "PAUSED"))).returning();
    if (!deleted.length) this.#require(await this.row(customerKey, key), "delete");
  }

  /**
   * `POST /pqm/auto-analyses/{key}/run`: a run now of the last complete week; 503 while a run of
   * the analysis is still making its reports.
   */
  async runNow(customerKey: string, key: string): Promise<AutoRunDto> {
    const row = await this.row(customerKey, key);
    this.#require(row, "run");
    const [busy] = await this.deps.db.select({ n: count() }).from(autoRuns).where(and(
      eq(autoRuns.analysisKey, key),
      inArray(autoRuns.status, ["PENDING", "CREATING"]),
    ));
    if ((busy?.n ?? 0) > 0) throw new AppError(503, { status: "RUNNING", action: "run" });
    const now = this.#now();
    const [run] = await this.deps.db.insert(autoRuns).values({
      key: crypto.randomUUID(),
      analysisKey: key,
      customerKey,
      scheduledFor: now,
      weekStart: new Date(lastCompleteWeek(now.getTime()).from),
      manual: true,
      status: "PENDING",
    }).onConflictDoNothing().returning();
    if (!run) throw new AppError(503, { status: "RUNNING", action: "run" });
    this.deps.runs.wake();
    return (await this.#runDtos([run]))[0]!;
  }

  /** `GET /pqm/auto-analyses/{key}/runs`: newest first, 12 per page. */
  async runs(customerKey: string, key: string, page: number): Promise<AutoRunPageDto> {
    await this.row(customerKey, key);
    const where = eq(autoRuns.analysisKey, key);
    const rows = await this.deps.db.select().from(autoRuns).where(where)
      .orderBy(desc(autoRuns.scheduledFor), desc(autoRuns.key))
      .limit(RUNS_PER_PAGE).offset(page * RUNS_PER_PAGE);
    const [total] = await this.deps.db.select({ n: count() }).from(autoRuns).where(where);
    return {
      runs: await this.#runDtos(rows),
      page,
      size: RUNS_PER_PAGE,
      total: total?.n ?? 0,
    };
  }

  async #runDtos(rows: AutoRunRow[]): Promise<AutoRunDto[]> {
    const keys = rows.map((r) => r.key);
    const made = keys.length
      ? await this.deps.db.select({
        key: reports.key,
        name: reports.name,
        status: reports.status,
        result: reports.result,
        run: reports.autoRunKey,
      }).from(reports).where(inArray(reports.autoRunKey, keys))
      : [];
    const byKey = new Map(made.map((r) => [r.key, r]));
    return rows.map((run) => {
      const items = run.items.map((item) => {
        const report = item.report_key ? byKey.get(item.report_key) : undefined;
        return {
          node_id: item.node_id,
          node_name: item.node_name,
          report: report
            ? { key: report.key, name: report.name, status: report.status, result: report.result }
            : null,
          failure: item.failure,
        };
      });
      const statuses = items.flatMap((i) => i.report ? [i.report] : []);
      const status = run.status === "FAILED"
        ? "FAILED"
        : run.status !== "CREATED"
        ? "PENDING"
        : statuses.some((r) => r.status === "SCHEDULED" || r.status === "IN_PROGRESS")
        ? "IN_PROGRESS"
        : "COMPLETED";
      const from = run.weekStart.getTime();
      return {
        key: run.key,
        scheduled_for: run.scheduledFor.toISOString(),
        manual: run.manual,
        week: {
          label: isoWeekLabel(from),
          from: new Date(from).toISOString(),
          to: new Date(from + WEEK_MS).toISOString(),
        },
        status,
        failure: run.failure,
        passed: statuses.filter((r) => r.result === "PASSED").length,
        not_passed: statuses.filter((r) => r.result === "NOT_PASSED").length,
        failed: statuses.filter((r) => r.status === "FAILED" || r.status === "CANCELLED").length +
          items.filter((i) => i.failure).length,
        items,
      };
    });
  }
}
