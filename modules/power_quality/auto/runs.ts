/**
 * Runs of auto-analyses as a kernel JobQueue. `claim` first turns due schedules into runs: per
 * analysis one `UPDATE ... SET next_run_at = <following run> WHERE next_run_at = <due time>
 * RETURNING` (only one process or poll wins a due time) and the run's insert (unique per
 * analysis and due time); a due time missed while the process was down is caught up once. Then
 * it claims PENDING runs (PENDING -> CREATING). A run resolves its nodes (the chosen ones, or the
 * group as it is now) and inserts one ordinary report per node, for the last complete ISO week
 * before its due time, in the same transaction that marks it CREATED: a restart in between
 * rolls both back and the run is made once by the next process, never twice.
 */
import { and, asc, eq, inArray, lte, sql } from "drizzle-orm";
import {
  AppError,
  type Db,
  type JobContext,
  type JobQueue,
  type Logger,
} from "../../../kernel/mod.ts";
import { feederLevel, type StationGroupDto } from "../../grid/mod.ts";
import type { ReportDirectory } from "../directory.ts";
import { failureOf } from "../jobs.ts";
import { reports } from "../schema.ts";
import { DUE_GRACE_MS, type Wakeable } from "../service.ts";
import { findGroup } from "./service.ts";
import { isoWeekLabel, nextRun, reportNameFor, WEEK_MS } from "./schedule.ts";
import { autoAnalyses, type AutoRunRow, autoRuns, type RunItem } from "./schema.ts";
import { lastCompleteWeek } from "./schedule.ts";

/** Attempts of one run before a restart gives up on it. */
export const MAX_RUN_ATTEMPTS = 3;
/** Due schedules turned into runs per poll. */
const SCHEDULES_PER_POLL = 50;

export type RunJob = AutoRunRow & { id: string };

export interface AutoRunDeps {
  db: Db;
  directory: ReportDirectory;
  structure(customerKey: string): Promise<readonly StationGroupDto[]>;
  /** The reports' job runner, woken once a run inserted its reports. */
  reports: Wakeable;
  logger: Logger;
  now?: () => Date;
}

/** The auto_runs table (fed by the schedules) as a JobQueue. */
export class AutoRunJobs implements JobQueue<RunJob> {
  readonly #now: () => Date;

  constructor(private readonly deps: AutoRunDeps) {
    this.#now = deps.now ?? (() => new Date());
  }

  /** Turns every due time up to `now` into a PENDING run, one due time per analysis and pass. */
  async schedule(now: Date): Promise<number> {
    const { db } = this.deps;
    let made = 0;
    // A schedule that is several due times behind (a past start, a long stop) catches up one
    // week per pass; the loop ends when nothing is due any more.
    for (let pass = 0; pass < 100; pass++) {
      const due = await db.select().from(autoAnalyses).where(and(
        eq(autoAnalyses.status, "ACTIVE"),
        lte(autoAnalyses.nextRunAt, now),
      )).orderBy(asc(autoAnalyses.nextRunAt)).limit(SCHEDULES_PER_POLL);
      if (!due.length) break;
      for (const row of due) {
        const at = row.nextRunAt!;
        const following = new Date(nextRun(row, at.getTime() + 1));
        const claimed = await db.transaction(async (tx) => {
          const [won] = await tx.update(autoAnalyses)
            .set({ nextRunAt: following, lastRunAt: at })
            .where(and(
              eq(autoAnalyses.key, row.key),
              eq(autoAnalyses.status, "ACTIVE"),
              eq(autoAnalyses.nextRunAt, at),
            )).returning({ key: autoAnalyses.key });
          if (!won) return false;
          await tx.insert(autoRuns).values({
            key: crypto.randomUUID(),
            analysisKey: row.key,
            customerKey: row.customerKey,
            scheduledFor: at,
            weekStart: new Date(lastCompleteWeek(at.getTime()).from),
            status: "PENDING",
          }).onConflictDoNothing();
          return true;
        });
        if (claimed) made++;
      }
    }
    return made;
  }

  async claim(limit: number, now: Date): Promise<RunJob[]> {
    await this.schedule(now);
    const { db } = this.deps;
    const pending = db.select({ key: autoRuns.key }).from(autoRuns)
      .where(eq(autoRuns.status, "PENDING")).orderBy(asc(autoRuns.scheduledFor)).limit(limit)
      .for("update", { skipLocked: true });
    const rows = await db.update(autoRuns).set({
      status: "CREATING",
      attempts: sql`${autoRuns.attempts} + 1`,
    }).where(and(inArray(autoRuns.key, pending), eq(autoRuns.status, "PENDING"))).returning();
    return rows.map((row) => ({ ...row, id: row.key }));
  }

  async run(job: RunJob, ctx: JobContext): Promise<void> {
    const { db, directory } = this.deps;
    const [analysis] = await db.select().from(autoAnalyses)
      .where(eq(autoAnalyses.key, job.analysisKey));
    if (!analysis) return; // deleted meanwhile: its runs went with it
    ctx.progress(10, "NODES");
    const customerKey = job.customerKey;
    const all = await directory.nodes(customerKey);
    const byId = new Map(all.map((n) => [n.id, n]));
    let targets: { id: string; name: string }[];
    if (analysis.scope === "NODES") {
      targets = analysis.nodes;
    } else {
      const group = findGroup(
        await this.deps.structure(customerKey),
        analysis.scope,
        analysis.groupId ?? "",
      );
      if (!group) throw new AppError("grid.elementNotFound");
      targets = group.nodes.map((n) => ({ id: n.id, name: n.name }));
      if (!targets.length) throw new AppError(505);
    }
    const cells = await directory.cellsByNode(customerKey);
    const from = job.weekStart.getTime();
    const to = from + WEEK_MS;
    const now = this.#now();
    const week = isoWeekLabel(from);
    const taken = new Set(
      (await db.select({ name: reports.name }).from(reports)
        .where(eq(reports.customerKey, customerKey))).map((r) => r.name.toLowerCase()),
    );
    const items: RunItem[] = [];
    const rows: (typeof reports.$inferInsert)[] = [];
    for (const target of targets) {
      const node = byId.get(target.id);
      const item: RunItem = {
        node_id: target.id,
        node_name: node?.name ?? target.name,
        report_key: null,
        failure: null,
      };
      items.push(item);
      const cell = node ? cells.get(node.id) : undefined;
      // The feeders that ever reported (a report of a silent feeder could never pass).
      const reporting = node && cell
        ? node.feeders.filter((f) => directory.series(cell, f.slot).some((id) => id !== undefined))
        : [];
      const problem = !node
        ? 514
        : !cell
        ? 505
        : !node.feeders.length
        ? 508
        : !reporting.length
        ? 526
        : null;
      if (problem) {
        item.failure = failureOf(new AppError(problem));
        continue;
      }
      const name = reportNameFor(analysis.name, week, node!.name, taken);
      taken.add(name.toLowerCase());
      item.report_key = crypto.randomUUID();
      rows.push({
        key: item.report_key,
        customerKey,
        name,
        language: analysis.language,
        nodeId: node!.id,
        nodeName: node!.name,
        ewName: node!.electrical_work.name,
        feeders: reporting.sort((a, b) => a.slot - b.slot)
          .map((f) => ({ id: f.id, name: f.name, slot: f.slot, level: feederLevel(f) })),
        startAt: new Date(from),
        endAt: new Date(to),
        standard: analysis.standard,
        limitSet: analysis.limitSet,
        limits: analysis.limits,
        status: "SCHEDULED",
        dueAt: new Date(Math.max(now.getTime(), to + DUE_GRACE_MS)),
        createdBy: analysis.createdBy,
        autoRunKey: job.key,
      });
    }
    ctx.signal.throwIfAborted();
    ctx.progress(60, "REPORTS");
    const done = await db.transaction(async (tx) => {
      const [marked] = await tx.update(autoRuns).set({
        status: "CREATED",
        items,
        failure: null,
        finishedAt: now,
      }).where(and(eq(autoRuns.key, job.key), eq(autoRuns.status, "CREATING")))
        .returning({ key: autoRuns.key });
      if (!marked) return false;
      for (let k = 0; k < rows.length; k += 100) {
        await tx.insert(reports).values(rows.slice(k, k + 100));
      }
      return true;
    });
    if (done && rows.length) this.deps.reports.wake();
  }

  async fail(job: RunJob, error: unknown): Promise<void> {
    const failure = failureOf(error);
    if (failure.code === null && failure.key === "common.internal") {
      this.deps.logger.error("An auto-analysis run failed", { key: job.key, error });
    }
    await this.deps.db.update(autoRuns).set({
      status: "FAILED",
      failure,
      finishedAt: this.#now(),
    }).where(and(eq(autoRuns.key, job.key), eq(autoRuns.status, "CREATING")));
  }

  async recover(): Promise<void> {
    const { db } = this.deps;
    await db.update(autoRuns).set({ status: "PENDING" }).where(and(
      eq(autoRuns.status, "CREATING"),
      sql`${autoRuns.attempts} < ${MAX_RUN_ATTEMPTS}`,
    ));
    await db.update(autoRuns).set({
      status: "FAILED",
      failure: {
        key: "pq.reportInterrupted",
        code: null,
        params: { attempts: MAX_RUN_ATTEMPTS },
      },
      finishedAt: this.#now(),
    }).where(eq(autoRuns.status, "CREATING"));
  }
}
