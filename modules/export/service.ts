/**
 * Data export (dem): estimates, exports as background jobs (the exports table is the queue of
 * the kernel's JobRunner), downloads, cancel, delete and the retention of files.
 */
import { rm, stat } from "node:fs/promises";
import type { DuckDBConnection } from "@duckdb/node-api";
import {
  AppError,
  type EventBus,
  type JobContext,
  type JobQueue,
  type Logger,
} from "../../kernel/mod.ts";
import {
  ACTIVE,
  type CreateExportInput,
  DOWNLOADABLE,
  type EstimateDto,
  estimateExport,
  EXPORT_LIMITS,
  type ExportDto,
  type ExportFeedersDto,
  exportFileName,
  type ExportPageDto,
  type ExportPageQuery,
  type ExportSelection,
  type ExportUsageDto,
  parseExportInstant,
  slotCount,
} from "./contract.ts";
import type { ExportEnded } from "./events.ts";
import type { ExportFeederDirectory } from "./feeders.ts";
import { exportDto, ExportRepository } from "./repository.ts";
import type { ExportRow, exports } from "./schema.ts";

/** A row of the exports table to insert. */
export type NewExport = typeof exports.$inferInsert & { key: string };
import { writeExport } from "./writer.ts";

/** The customer's settings an export uses. */
export interface CustomerFormat {
  timezone: string;
  numberFormat: string;
}

export interface ExportServiceDeps {
  repository: ExportRepository;
  analytics: DuckDBConnection;
  /** A connection of its own for each running export: cancel interrupts its statement. */
  connect?: () => Promise<DuckDBConnection>;
  feeders: ExportFeederDirectory;
  bus: EventBus;
  logger: Logger;
  /** Folder of the export files (DATA_DIR/exports). */
  dir: string;
  customerFormat(customerKey: string): Promise<CustomerFormat>;
  /** Wakes and cancels jobs of the runner (set by mod.ts once the runner exists). */
  runner?: { wake(): void; cancel(id: string): boolean };
}

/** A job of the runner: the export's row and its row counts as they progress. */
export interface ExportJob {
  id: string;
  row: ExportRow;
}

/** Separator and decimal mark of a number format: a decimal comma goes with ";". */
export function csvMarks(numberFormat: string): { separator: string; decimalMark: string } {
  const comma = /,\d+$/.test(numberFormat);
  return comma ? { separator: ";", decimalMark: "," } : { separator: ",", decimalMark: "." };
}

export class ExportService implements JobQueue<ExportJob> {
  readonly #repo: ExportRepository;
  readonly #deps: ExportServiceDeps;
  readonly #rows = new Map<string, { done: number; total: number }>();

  constructor(deps: ExportServiceDeps) {
    this.#deps = deps;
    this.#repo = deps.repository;
  }

  set runner(runner: { wake(): void; cancel(id: string): boolean }) {
    this.#deps.runner = runner;
  }

  feeders(customerKey: string): Promise<ExportFeedersDto> {
    return this.#deps.feeders.list(customerKey).then((feeders) => ({ feeders }));
  }

  async estimate(customerKey: string, selection: ExportSelection): Promise<EstimateDto> {
    const feeders = await this.#deps.feeders.resolve(customerKey, selection.feeders);
    const names = (f: (typeof feeders)[number]) =>
      new TextEncoder().encode(f.station_name + f.node_name + f.feeder_name + f.feeder_id).length;
    const slots = slotCount(
      parseExportInstant(selection.period.from),
      parseExportInstant(selection.period.to),
      selection.interval,
    );
    const { rows, bytes } = estimateExport(
      feeders.map((f) => ({ hasNeutral: f.series[3] !== undefined, nameBytes: names(f) })),
      selection.parameters,
      slots,
      selection.format,
      selection.layout,
    );
    return {
      rows,
      estimated_bytes: bytes,
      max_bytes: EXPORT_LIMITS.maxBytes,
      too_large: bytes > EXPORT_LIMITS.maxBytes,
    };
  }

  async create(customerKey: string, userId: string, input: CreateExportInput) {
    const row = await this.newExport(customerKey, userId, input);
    await this.#repo.insert(row);
    this.#deps.runner?.wake();
    return { key: row.key };
  }

  /**
   * The row of a new queued export (not stored): refused over the size limit; a run of a
   * schedule names its schedule (one export per schedule and period).
   */
  async newExport(
    customerKey: string,
    userId: string,
    input: CreateExportInput,
    scheduleKey: string | null = null,
  ): Promise<NewExport> {
    const estimate = await this.estimate(customerKey, input);
    if (estimate.too_large) {
      throw new AppError("export.tooLarge", {
        bytes: estimate.estimated_bytes,
        max: EXPORT_LIMITS.maxBytes,
      });
    }
    const { from, to } = input.period;
    const { timezone } = await this.#deps.customerFormat(customerKey);
    return {
      key: crypto.randomUUID(),
      customerKey,
      userId,
      name: input.file_name.trim(),
      fileName: exportFileName(input.file_name, from, to, "zip", timezone),
      periodFrom: new Date(parseExportInstant(from)),
      periodTo: new Date(parseExportInstant(to)),
      feeders: [...new Set(input.feeders)],
      parameters: input.parameters,
      interval: input.interval,
      format: input.format,
      layout: input.layout,
      directoryStructure: input.directory_structure,
      scheduleKey,
      status: "QUEUED",
      rowsTotal: estimate.rows,
      estimatedBytes: estimate.estimated_bytes,
    };
  }

  /** Polls the queue now (a schedule queued a run). */
  wake(): void {
    this.#deps.runner?.wake();
  }

  /** Notifies the user of an export that ended without a file (a scheduled run refused). */
  announceFailed(row: ExportRow): Promise<void> {
    return this.#announce(row, "FAILED");
  }

  async page(customerKey: string, userId: string, q: ExportPageQuery): Promise<ExportPageDto> {
    const { items, total } = await this.#repo.page(customerKey, userId, q.page, q.size);
    return { items: items.map(exportDto), total, page: q.page, size: q.size };
  }

  async get(customerKey: string, userId: string, key: string): Promise<ExportDto> {
    return exportDto(await this.#own(customerKey, userId, key));
  }

  /** The file of a finished export (marked downloaded). */
  async file(customerKey: string, userId: string, key: string) {
    const row = await this.#own(customerKey, userId, key);
    if (!DOWNLOADABLE.includes(row.status as ExportDto["status"])) {
      throw new AppError("export.notReady", { status: row.status });
    }
    const path = this.#path(key);
    const size = await stat(path).then((s) => s.size, () => null);
    if (size === null) throw new AppError("export.notReady", { status: "DELETED" });
    await this.#repo.markDownloaded(key, new Date());
    return { path, size, fileName: row.fileName };
  }

  /** The customer of a user's export (a download link names only the export and the user). */
  async customerOf(key: string, userId: string): Promise<string> {
    const row = await this.#repo.byKey(key);
    if (!row || row.userId !== userId) throw new AppError("export.notFound");
    return row.customerKey;
  }

  async cancel(customerKey: string, userId: string, key: string): Promise<ExportDto> {
    await this.#own(customerKey, userId, key);
    if (!await this.#repo.cancel(key)) throw new AppError("export.notActive");
    this.#deps.runner?.cancel(key);
    return exportDto((await this.#repo.byKey(key))!);
  }

  async delete(customerKey: string, userId: string, key: string): Promise<void> {
    const row = await this.#own(customerKey, userId, key);
    if (ACTIVE.includes(row.status as ExportDto["status"])) {
      await this.#repo.cancel(key);
      this.#deps.runner?.cancel(key);
    }
    await rm(this.#path(key), { force: true });
    await this.#repo.setStatus(key, "DELETED", { stage: null });
  }

  /** The export files of a customer on disk (every user's). */
  usage(customerKey: string): Promise<ExportUsageDto> {
    return this.#repo.usage(customerKey);
  }

  /** Deletes the files whose retention ended and marks them deleted; returns how many. */
  async purge(now = new Date()): Promise<number> {
    const expired = await this.#repo.expired(now);
    for (const row of expired) {
      await rm(this.#path(row.key), { force: true });
      await this.#repo.setStatus(row.key, "DELETED");
    }
    if (expired.length) {
      this.#deps.logger.info("Expired exports deleted", { count: expired.length });
    }
    return expired.length;
  }

  // ---- JobQueue ---------------------------------------------------------------------------

  async claim(limit: number, now: Date): Promise<ExportJob[]> {
    return (await this.#repo.claim(limit, now)).map((row) => ({ id: row.key, row }));
  }

  async run(job: ExportJob, ctx: JobContext): Promise<void> {
    const { row } = job;
    const format = await this.#deps.customerFormat(row.customerKey);
    const feeders = await this.#deps.feeders.resolve(row.customerKey, row.feeders);
    const target = this.#path(row.key);
    let rows = 0;
    // Two exports (or an export and a chart) on one connection would start a statement while
    // the other's is running, which DuckDB does not allow on one connection.
    const own = this.#deps.connect ? await this.#deps.connect() : undefined;
    const size = await writeExport(
      own ?? this.#deps.analytics,
      {
        key: row.key,
        baseName: row.fileName.replace(/\.zip$/, ""),
        from: row.periodFrom.getTime(),
        to: row.periodTo.getTime(),
        interval: row.interval as ExportDto["interval"],
        parameters: row.parameters,
        format: row.format as ExportDto["format"],
        layout: row.layout as ExportDto["layout"],
        structure: row.directoryStructure as ExportDto["directory_structure"],
        timezone: format.timezone,
        ...csvMarks(format.numberFormat),
      },
      feeders,
      target,
      {
        signal: ctx.signal,
        exclusive: own !== undefined,
        progress: (done, total, stage) => {
          if (done >= 0) {
            rows = total;
            this.#rows.set(job.id, { done, total });
          }
          // Writing and zipping take the last 10 %.
          const percent = done < 0
            ? (stage === "zipping" ? 95 : 90)
            : total
            ? 90 * done / total
            : 0;
          ctx.progress(percent, stage);
        },
      },
    ).finally(() => own?.closeSync());
    this.#rows.delete(job.id);
    if (!await this.#repo.finish(row.key, size, rows, new Date())) {
      // Cancelled or deleted while the last step ran: no file stays.
      await rm(target, { force: true });
      return;
    }
    await this.#announce(row, "DONE");
  }

  async fail(job: ExportJob, error: unknown): Promise<void> {
    this.#rows.delete(job.id);
    await rm(this.#path(job.id), { force: true });
    // The reason the user reads: a catalogue error as it is, else the first line of the
    // message without file paths (a full disk, a DuckDB error).
    const [reason, params] = error instanceof AppError
      ? [error.entry.key, error.params]
      : ["export.failed", {
        detail: (error instanceof Error ? error.message : String(error)).split("\n")[0]!
          .replace(/(\/[^\s"']+)+/g, "<file>").slice(0, 300),
      }];
    if (await this.#repo.fail(job.id, reason, params)) await this.#announce(job.row, "FAILED");
  }

  async saveProgress(job: ExportJob, percent: number, stage?: string): Promise<void> {
    const rows = this.#rows.get(job.id) ?? { done: 0, total: job.row.rowsTotal };
    await this.#repo.progress(job.id, rows.done, rows.total, percent, stage ?? "reading");
  }

  /**
   * Exports a dead process left running start again from the beginning (their partial work
   * folders are removed); after three interrupted attempts they fail with a reason.
   */
  async recover(): Promise<void> {
    const { requeued, failed } = await this.#repo.recover();
    for (const key of [...requeued, ...failed.map((r) => r.key)]) {
      await rm(`${this.#path(key)}.part`, { recursive: true, force: true });
      await rm(this.#path(key), { force: true });
    }
    for (const row of failed) await this.#announce(row, "FAILED");
    if (requeued.length || failed.length) {
      this.#deps.logger.warn("Exports interrupted by a restart", {
        requeued: requeued.length,
        failed: failed.length,
      });
    }
  }

  // ---- helpers ----------------------------------------------------------------------------

  #path(key: string): string {
    return `${this.#deps.dir}/${key}.zip`;
  }

  async #own(customerKey: string, userId: string, key: string): Promise<ExportRow> {
    const row = await this.#repo.find(customerKey, userId, key);
    if (!row) throw new AppError("export.notFound");
    return row;
  }

  #announce(row: ExportRow, state: "DONE" | "FAILED"): Promise<void> {
    const event: ExportEnded = {
      customerKey: row.customerKey,
      userId: row.userId,
      exportKey: row.key,
      fileName: row.fileName,
      state,
      at: new Date().toISOString(),
    };
    return this.#deps.bus.publish("export.ended", event);
  }
}
