/**
 * @module
 * Data export (dem): CSV, Parquet and DuckDB files of the measurements of chosen feeders,
 * written by DuckDB in the background (kernel JobRunner), kept 7 days; the end of an export is
 * published as `export.ended` (notifications turn it into a DATA_EXPORT notification).
 */
import { mkdir } from "node:fs/promises";
import type { DuckDBConnection } from "@duckdb/node-api";
import {
  type Db,
  type EventBus,
  JobRunner,
  type Logger,
  type PlatformModule,
} from "../../kernel/mod.ts";
import { type ExportFeederDeps, exportFeederDirectory } from "./feeders.ts";
import { ExportRepository } from "./repository.ts";
import { DownloadLinks } from "./download_link.ts";
import { exportLinkRoutes, exportRoutes } from "./routes.ts";
import { type CustomerFormat, type ExportJob, ExportService } from "./service.ts";
import { ScheduleService } from "./schedules.ts";

export type { ExportEnded } from "./events.ts";
export type { ExportDto, ExportPageDto, ScheduleDto, SchedulesDto } from "./contract.ts";
export { ExportService } from "./service.ts";

/** What data export needs from the composition root. */
export interface ExportDeps extends ExportFeederDeps {
  db: Db;
  analytics: DuckDBConnection;
  /** A connection of its own for each running export (else `analytics` is shared). */
  connect?: () => Promise<DuckDBConnection>;
  bus: EventBus;
  logger: Logger;
  /** Folder of the export files (DATA_DIR/exports). */
  dir: string;
  customerFormat(customerKey: string): Promise<CustomerFormat>;
  /** Exports running at once in this process (default 2). */
  concurrency?: number;
  /** How often expired files are looked for (default hourly). */
  retentionEveryMs?: number;
  /** How often due scheduled exports are looked for (default every minute). */
  scheduleEveryMs?: number;
}

/** The module assembled: its routes, the service and the runner (tests drive them). */
export interface ExportModule extends PlatformModule {
  service: ExportService;
  runner: JobRunner<ExportJob>;
  schedules: ScheduleService;
  /** Another instance on the same stores, as a restarted process builds it (tests). */
  restarted(): ExportModule;
}

/** Builds the /dem routes; `start()` recovers interrupted exports and runs the queue. */
export function exportModule(deps: ExportDeps): ExportModule {
  const logger = deps.logger.child({ module: "export" });
  const service = new ExportService({
    repository: new ExportRepository(deps.db),
    analytics: deps.analytics,
    connect: deps.connect,
    feeders: exportFeederDirectory(deps),
    bus: deps.bus,
    logger,
    dir: deps.dir,
    customerFormat: deps.customerFormat,
  });
  const runner = new JobRunner<ExportJob>(service, {
    name: "export",
    concurrency: deps.concurrency ?? 2,
    logger,
  });
  service.runner = runner;
  const schedules = new ScheduleService({
    db: deps.db,
    exports: service,
    logger,
    customerFormat: deps.customerFormat,
  });
  const links = new DownloadLinks(deps.db);
  let timer: ReturnType<typeof setInterval> | undefined;
  let scheduler: ReturnType<typeof setInterval> | undefined;
  const purge = () =>
    service.purge().catch((error) => logger.error("Export retention failed", { error }));
  const tick = () =>
    schedules.tick().catch((error) => logger.error("Scheduled exports failed", { error }));
  return {
    name: "export",
    service,
    runner,
    schedules,
    restarted: () => exportModule(deps),
    api: [{ prefix: "/dem", routes: exportRoutes(service, links, schedules) }],
    // The signed download links carry their own proof (the browser navigates to them).
    public: [{ prefix: "/dem", routes: exportLinkRoutes(service, links) }],
    async start() {
      await mkdir(deps.dir, { recursive: true });
      await runner.start();
      await purge();
      timer = setInterval(() => void purge(), deps.retentionEveryMs ?? 3_600_000);
      // Runs due while the platform was down are made now, each once.
      await tick();
      scheduler = setInterval(() => void tick(), deps.scheduleEveryMs ?? 60_000);
    },
    async close() {
      clearInterval(timer);
      clearInterval(scheduler);
      await runner.close();
    },
  };
}
