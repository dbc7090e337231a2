/**
 * Scheduled exports (docs/export.md): a user's selection without a period, run daily, weekly or
 * monthly; each run queues an export of the previous period (customer's time zone) with its own
 * file and, when it ends, its DATA_EXPORT notification. A run is claimed by moving the
 * schedule's `next_run_at` on with `UPDATE ... WHERE next_run_at = <the one read> RETURNING`
 * in the transaction that inserts the export (and a unique index on schedule and period backs
 * it): two processes, or a restart between the two, never run a period twice, and a run due
 * while the platform was down is made at the next start.
 */
import { and, asc, count, eq, lte, sql } from "drizzle-orm";
import { AppError, type Db, type Logger } from "../../kernel/mod.ts";
import {
  EXPORT_LIMITS,
  type ExportDto,
  exportFileName,
  type ScheduleDto,
  type ScheduleFrequency,
  type ScheduleInput,
  type SchedulesDto,
} from "./contract.ts";
import {
  LONGEST_PERIOD_DAYS,
  nextRunAfter,
  periodBefore,
  periodOfRun,
  RUN_DELAY_MS,
} from "./schedule_time.ts";
import { exports, type ScheduleRow, schedules } from "./schema.ts";
import type { CustomerFormat, ExportService, NewExport } from "./service.ts";

const iso = (d: Date | null) => d ? d.toISOString() : null;

export function scheduleDto(row: ScheduleRow): ScheduleDto {
  return {
    key: row.key,
    name: row.name,
    frequency: row.frequency as ScheduleFrequency,
    feeders: row.feeders,
    parameters: row.parameters as ScheduleDto["parameters"],
    interval: row.interval as ScheduleDto["interval"],
    format: row.format as ScheduleDto["format"],
    layout: row.layout as ScheduleDto["layout"],
    directory_structure: row.directoryStructure as ScheduleDto["directory_structure"],
    active: row.active,
    next_run_at: row.nextRunAt.toISOString(),
    last_run_at: iso(row.lastRunAt),
    last_export_key: row.lastExportKey,
    runs: row.runs,
    created_at: row.createdAt.toISOString(),
  };
}

export interface ScheduleServiceDeps {
  db: Db;
  exports: ExportService;
  logger: Logger;
  customerFormat(customerKey: string): Promise<CustomerFormat>;
}

/** Runs claimed by one tick at most (a long outage is caught up over several ticks). */
const RUNS_PER_TICK = 50;

export class ScheduleService {
  readonly #deps: ScheduleServiceDeps;

  constructor(deps: ScheduleServiceDeps) {
    this.#deps = deps;
  }

  async list(customerKey: string, userId: string): Promise<SchedulesDto> {
    const rows = await this.#deps.db.select().from(schedules)
      .where(and(eq(schedules.customerKey, customerKey), eq(schedules.userId, userId)))
      .orderBy(asc(schedules.createdAt), asc(schedules.key));
    return { items: rows.map(scheduleDto) };
  }

  async get(customerKey: string, userId: string, key: string): Promise<ScheduleDto> {
    return scheduleDto(await this.#own(customerKey, userId, key));
  }

  async create(customerKey: string, userId: string, input: ScheduleInput): Promise<ScheduleDto> {
    const [mine] = await this.#deps.db.select({ n: count() }).from(schedules)
      .where(and(eq(schedules.customerKey, customerKey), eq(schedules.userId, userId)));
    if ((mine?.n ?? 0) >= EXPORT_LIMITS.maxSchedulesPerUser) {
      throw new AppError("export.tooManySchedules", { max: EXPORT_LIMITS.maxSchedulesPerUser });
    }
    await this.#check(customerKey, input);
    const { timezone } = await this.#deps.customerFormat(customerKey);
    const [row] = await this.#deps.db.insert(schedules).values({
      key: crypto.randomUUID(),
      customerKey,
      userId,
      ...this.#fields(input),
      nextRunAt: new Date(nextRunAfter(input.frequency, Date.now(), timezone)),
    }).returning();
    return scheduleDto(row!);
  }

  async update(
    customerKey: string,
    userId: string,
    key: string,
    input: ScheduleInput,
  ): Promise<ScheduleDto> {
    const before = await this.#own(customerKey, userId, key);
    await this.#check(customerKey, input);
    const { timezone } = await this.#deps.customerFormat(customerKey);
    // A new frequency, or a schedule resumed, runs at the next end of a period from now.
    const reschedule = before.frequency !== input.frequency || (!before.active && input.active);
    const [row] = await this.#deps.db.update(schedules).set({
      ...this.#fields(input),
      ...(reschedule
        ? { nextRunAt: new Date(nextRunAfter(input.frequency, Date.now(), timezone)) }
        : {}),
      updatedAt: new Date(),
    }).where(eq(schedules.key, key)).returning();
    return scheduleDto(row!);
  }

  /**
   * Runs a schedule now, out of its rhythm (docs/export.md "Scheduled exports"): its selection
   * over its last whole day, week or month, as a one-off export of the user's (a new file and a
   * notification); the schedule's next run and run count stay, so the regular run of that
   * period still comes. A paused schedule runs too. Refused like a new export.
   */
  async runNow(customerKey: string, userId: string, key: string): Promise<{ key: string }> {
    const schedule = await this.#own(customerKey, userId, key);
    const { timezone } = await this.#deps.customerFormat(customerKey);
    const period = periodBefore(schedule.frequency as ScheduleFrequency, Date.now(), timezone);
    return await this.#deps.exports.create(customerKey, userId, {
      ...this.#input(schedule),
      period: { from: new Date(period.from).toISOString(), to: new Date(period.to).toISOString() },
    });
  }

  async delete(customerKey: string, userId: string, key: string): Promise<void> {
    await this.#own(customerKey, userId, key);
    await this.#deps.db.delete(schedules).where(eq(schedules.key, key));
  }

  /**
   * Queues the exports of the runs due at `now`, each once; returns the keys of the exports
   * queued (a refused run is a failed export with its reason and notification).
   */
  async tick(now = new Date()): Promise<string[]> {
    const due = await this.#deps.db.select().from(schedules)
      .where(and(eq(schedules.active, true), lte(schedules.nextRunAt, now)))
      .orderBy(asc(schedules.nextRunAt)).limit(RUNS_PER_TICK);
    const queued: string[] = [];
    for (const schedule of due) {
      try {
        const key = await this.#run(schedule);
        if (key) queued.push(key);
      } catch (error) {
        this.#deps.logger.error("A scheduled export could not be queued", {
          error,
          schedule: schedule.key,
        });
      }
    }
    if (queued.length) this.#deps.exports.wake();
    return queued;
  }

  /** One run of a schedule: claimed and its export inserted in one transaction. */
  async #run(schedule: ScheduleRow): Promise<string | null> {
    const frequency = schedule.frequency as ScheduleFrequency;
    const { timezone } = await this.#deps.customerFormat(schedule.customerKey);
    const runAt = schedule.nextRunAt.getTime();
    const period = periodOfRun(frequency, runAt, timezone);
    const next = nextRunAfter(frequency, runAt - RUN_DELAY_MS, timezone);
    const input = {
      ...this.#input(schedule),
      period: { from: new Date(period.from).toISOString(), to: new Date(period.to).toISOString() },
    };
    let row: NewExport;
    let refused: AppError | null = null;
    try {
      row = await this.#deps.exports.newExport(
        schedule.customerKey,
        schedule.userId,
        input,
        schedule.key,
      );
    } catch (error) {
      // A feeder deleted since, or a file grown over the limit: a failed run, with its reason.
      if (!(error instanceof AppError)) throw error;
      refused = error;
      row = {
        key: crypto.randomUUID(),
        customerKey: schedule.customerKey,
        userId: schedule.userId,
        name: schedule.name,
        fileName: exportFileName(
          schedule.name,
          input.period.from,
          input.period.to,
          "zip",
          timezone,
        ),
        periodFrom: new Date(period.from),
        periodTo: new Date(period.to),
        feeders: schedule.feeders,
        parameters: schedule.parameters,
        interval: schedule.interval,
        format: schedule.format,
        layout: schedule.layout,
        directoryStructure: schedule.directoryStructure,
        scheduleKey: schedule.key,
        status: "FAILED",
        estimatedBytes: 0,
        errorKey: error.entry.key,
        errorParams: error.params,
        finishedAt: new Date(),
      };
    }
    const inserted = await this.#deps.db.transaction(async (tx) => {
      const claimed = await tx.update(schedules).set({
        nextRunAt: new Date(next),
        lastRunAt: new Date(),
        lastExportKey: row.key,
        runs: sql`${schedules.runs} + 1`,
      }).where(and(
        eq(schedules.key, schedule.key),
        eq(schedules.nextRunAt, schedule.nextRunAt),
        eq(schedules.active, true),
      )).returning({ key: schedules.key });
      if (!claimed.length) return false;
      const added = await tx.insert(exports).values(row).onConflictDoNothing().returning({
        key: exports.key,
      });
      return added.length > 0;
    });
    if (!inserted) return null;
    if (refused) {
      const [stored] = await this.#deps.db.select().from(exports).where(eq(exports.key, row.key));
      if (stored) await this.#deps.exports.announceFailed(stored);
      return null;
    }
    return row.key;
  }

  /** The size of the longest period of the frequency is checked like an export's. */
  async #check(customerKey: string, input: ScheduleInput): Promise<void> {
    const to = Date.UTC(2026, 0, 1);
    const from = to - LONGEST_PERIOD_DAYS[input.frequency] * 86_400_000;
    const estimate = await this.#deps.exports.estimate(customerKey, {
      ...input,
      period: { from: new Date(from).toISOString(), to: new Date(to).toISOString() },
    });
    if (estimate.too_large) {
      throw new AppError("export.tooLarge", {
        bytes: estimate.estimated_bytes,
        max: EXPORT_LIMITS.maxBytes,
      });
    }
  }

  #fields(input: ScheduleInput) {
    return {
      name: input.file_name.trim(),
      frequency: input.frequency,
      feeders: [...new Set(input.feeders)],
      parameters: input.parameters,
      interval: input.interval,
      format: input.format,
      layout: input.layout,
      directoryStructure: input.directory_structure,
      active: input.active,
    };
  }

  #input(row: ScheduleRow) {
    return {
      file_name: row.name,
      feeders: row.feeders,
      parameters: row.parameters as ExportDto["parameters"],
      interval: row.interval as ExportDto["interval"],
      format: row.format as ExportDto["format"],
      layout: row.layout as ExportDto["layout"],
      directory_structure: row.directoryStructure as ExportDto["directory_structure"],
    };
  }

  async #own(customerKey: string, userId: string, key: string): Promise<ScheduleRow> {
    const [row] = await this.#deps.db.select().from(schedules).where(and(
      eq(schedules.key, key),
      eq(schedules.customerKey, customerKey),
      eq(schedules.userId, userId),
    ));
    if (!row) throw new AppError("export.scheduleNotFound");
    return row;
  }
}
