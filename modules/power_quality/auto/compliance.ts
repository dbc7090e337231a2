/**
 * The grid-wide compliance (beyond the spec): every week, for every customer that has power
 * quality, each node with a cell is evaluated against EN 50160 over the last complete ISO week
 * (all its feeders, one columnar load of the whole grid, grid_load.ts) and its verdict stored
 * with the failing parameters; no PDF is made. The weeks are jobs of the kernel JobRunner (the
 * compliance_weeks table: PENDING -> RUNNING -> DONE | FAILED), so a restart resumes them.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { and, asc, eq, lte, sql } from "drizzle-orm";
import { EN50160_LV } from "../../../core/mod.ts";
import { type Db, type JobContext, type JobQueue, type Logger } from "../../../kernel/mod.ts";
import type { StationGroupDto } from "../../grid/mod.ts";
import { feederLevel } from "../../grid/mod.ts";
import { feederNominal, type ReportDirectory } from "../directory.ts";
import { failureOf } from "../jobs.ts";
import { evaluateGrid, type GridFeeder, nodeVerdicts } from "./grid_load.ts";
import { lastCompleteWeek, WEEK_MS } from "./schedule.ts";
import {
  type ComplianceVerdictRow,
  complianceVerdicts,
  type ComplianceWeekRow,
  complianceWeeks,
} from "./schema.ts";

/** The last slot of a week is aggregated about a minute after it closes: wait a little more. */
export const COMPLIANCE_GRACE_MS = 15 * 60_000;
const MAX_ATTEMPTS = 3;
const APP = "app:power-quality";

export type WeekJob = ComplianceWeekRow & { id: string };

export interface ComplianceDeps {
  db: Db;
  analytics: DuckDBConnection;
  directory: ReportDirectory;
  structure(customerKey: string): Promise<readonly StationGroupDto[]>;
  /** Customers whose weeks are evaluated (those whose applications list power quality). */
  customerKeys(): Promise<string[]>;
  logger: Logger;
  now?: () => Date;
  /**
   * How long after start the weekly week is first queued on its own (default 5 minutes): a
   * restarting platform serves the cells' backlog first, and the grid-wide scan (which also
   * warms monitoring's topology) waits. A forced evaluation and weeks already pending run at once.
   */
  startDelayMs?: number;
}

const START_DELAY_MS = 5 * 60_000;

/** Where each node sits: its LV group's name and its coordinates. */
function placeOf(structure: readonly StationGroupDto[]) {
  const map = new Map<string, { lvGroup: string; latitude: number; longitude: number }>();
  for (const s of structure) {
    for (const mv of s.mv_feeder_groups) {
      for (const lv of mv.lv_groups) {
        for (const n of lv.nodes) {
          map.set(n.id, {
            lvGroup: lv.name,
            latitude: n.electrical_work.latitude ?? n.latitude,
            longitude: n.electrical_work.longitude ?? n.longitude,
          });
        }
      }
    }
  }
  return map;
}

/** The compliance_weeks table as a JobQueue; `claim` first adds the last complete week. */
export class ComplianceJobs implements JobQueue<WeekJob> {
  readonly #now: () => Date;
  #queuedWeek = -1;
  #queuedAt = 0;
  readonly #queueFrom: number;

  constructor(private readonly deps: ComplianceDeps) {
    this.#now = deps.now ?? (() => new Date());
    this.#queueFrom = performance.now() + (deps.startDelayMs ?? START_DELAY_MS);
  }

  /** Adds the last complete week of every customer (once per week and process, or hourly). */
  async queueWeek(now: Date, force = false): Promise<void> {
    const week = lastCompleteWeek(now.getTime()).from;
    if (!force && week === this.#queuedWeek && now.getTime() - this.#queuedAt < 3_600_000) return;
    const keys = await this.deps.customerKeys();
    if (keys.length) {
      await this.deps.db.insert(complianceWeeks).values(keys.map((customerKey) => ({
        customerKey,
        weekStart: new Date(week),
        status: "PENDING" as const,
        dueAt: new Date(week + WEEK_MS + COMPLIANCE_GRACE_MS),
      }))).onConflictDoNothing();
    }
    this.#queuedWeek = week;
    this.#queuedAt = now.getTime();
  }

  async claim(limit: number, now: Date): Promise<WeekJob[]> {
    if (performance.now() >= this.#queueFrom) await this.queueWeek(now);
    const { db } = this.deps;
    const due = await db.select({ c: complianceWeeks.customerKey, w: complianceWeeks.weekStart })
      .from(complianceWeeks)
      .where(and(eq(complianceWeeks.status, "PENDING"), lte(complianceWeeks.dueAt, now)))
      .orderBy(asc(complianceWeeks.dueAt)).limit(limit);
    const jobs: WeekJob[] = [];
    for (const { c, w } of due) {
      const [row] = await db.update(complianceWeeks).set({
        status: "RUNNING",
        attempts: sql`${complianceWeeks.attempts} + 1`,
        startedAt: now,
      }).where(and(
        eq(complianceWeeks.customerKey, c),
        eq(complianceWeeks.weekStart, w),
        eq(complianceWeeks.status, "PENDING"),
      )).returning();
      if (row) jobs.push({ ...row, id: `${c}|${w.toISOString()}` });
    }
    return jobs;
  }

  async run(job: WeekJob, ctx: JobContext): Promise<void> {
    const { db, directory } = this.deps;
    const customerKey = job.customerKey;
    const from = job.weekStart.getTime();
    const nodes = await directory.nodes(customerKey);
    const places = placeOf(await this.deps.structure(customerKey));
    const cells = await directory.cellsByNode(customerKey);
    const customer = await directory.customer(customerKey);
    const feeders: GridFeeder[] = [];
    const evaluated = nodes.filter((n) => cells.has(n.id) && n.feeders.length);
    evaluated.forEach((node, index) => {
      const cell = cells.get(node.id)!;
      for (const f of [...node.feeders].sort((a, b) => a.slot - b.slot)) {
        const phases = directory.series(cell, f.slot);
        // A feeder that never reported is no verdict of the node (a node with none: null).
        if (phases.every((id) => id === undefined)) continue;
        feeders.push({
          node: index,
          id: f.id,
          name: f.name,
          phases,
          nominalVoltage: feederNominal(customer, { level: feederLevel(f) }),
        });
      }
    });
    ctx.progress(5, "LOADING");
    const { results } = await evaluateGrid(
      this.deps.analytics,
      feeders,
      from,
      customer.nominalFrequency,
      EN50160_LV,
      { signal: ctx.signal },
    );
    ctx.progress(80, "STORING");
    const verdicts = nodeVerdicts(evaluated.length, feeders, results);
    const rows: ComplianceVerdictRow[] = evaluated.map((node, k) => {
      const place = places.get(node.id);
      const v = verdicts[k]!;
      return {
        customerKey,
        weekStart: job.weekStart,
        nodeId: node.id,
        nodeName: node.name,
        ewName: node.electrical_work.name,
        lvGroup: place?.lvGroup ?? "",
        latitude: place?.latitude ?? node.latitude,
        longitude: place?.longitude ?? node.longitude,
        passed: v.passed,
        failed: v.failed,
        availabilityPct: v.availabilityPct,
        feeders: v.feeders,
      };
    });
    ctx.signal.throwIfAborted();
    await db.transaction(async (tx) => {
      await tx.delete(complianceVerdicts).where(and(
        eq(complianceVerdicts.customerKey, customerKey),
        eq(complianceVerdicts.weekStart, job.weekStart),
      ));
      for (let k = 0; k < rows.length; k += 500) {
        await tx.insert(complianceVerdicts).values(rows.slice(k, k + 500));
      }
      await tx.update(complianceWeeks).set({
        status: "DONE",
        nodes: rows.length,
        failure: null,
        finishedAt: this.#now(),
      }).where(and(
        eq(complianceWeeks.customerKey, customerKey),
        eq(complianceWeeks.weekStart, job.weekStart),
      ));
    });
  }

  async fail(job: WeekJob, error: unknown): Promise<void> {
    const failure = failureOf(error);
    this.deps.logger.error("A grid compliance week failed", { customer: job.customerKey, error });
    await this.deps.db.update(complianceWeeks).set({
      status: "FAILED",
      failure,
      finishedAt: this.#now(),
    }).where(and(
      eq(complianceWeeks.customerKey, job.customerKey),
      eq(complianceWeeks.weekStart, job.weekStart),
      eq(complianceWeeks.status, "RUNNING"),
    ));
  }

  async recover(): Promise<void> {
    const { db } = this.deps;
    await db.update(complianceWeeks).set({ status: "PENDING" }).where(and(
      eq(complianceWeeks.status, "RUNNING"),
      sql`${complianceWeeks.attempts} < ${MAX_ATTEMPTS}`,
    ));
    await db.update(complianceWeeks).set({
      status: "FAILED",
      failure: { key: "pq.reportInterrupted", code: null, params: { attempts: MAX_ATTEMPTS } },
      finishedAt: this.#now(),
    }).where(eq(complianceWeeks.status, "RUNNING"));
  }
}

/** Customers whose applications list power quality, of a customers service. */
export function powerQualityCustomers(customers: {
  allKeys(): Promise<string[]>;
  getByKey(key: string): Promise<{ applications?: readonly string[] } | null>;
}): () => Promise<string[]> {
  return async () => {
    const keys: string[] = [];
    for (const key of await customers.allKeys()) {
      if ((await customers.getByKey(key))?.applications?.includes(APP)) keys.push(key);
    }
    return keys;
  };
}
