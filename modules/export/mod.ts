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

export type { ExportEnded } from "./events.ts";
export type { ExportDto, ExportPageDto } from "./contract.ts";
export { ExportService } from "./service.ts";

/** What data export needs from the composition root. */
export interface ExportDeps extends ExportFeederDeps {
  db: Db;
  analytics: DuckDBConnection;
  bus: EventBus;
  logger: Logger;
  /** Folder of the export files (DATA_DIR/exports). */
  dir: string;
  customerFormat(customerKey: string): Promise<CustomerFormat>;
  /** Exports running at once in this process (default 2). */
  concurrency?: number;
  /** How often expired files are looked for (default hourly). */
  retentionEveryMs?: number;
}

/** The module assembled: its routes, the service and the runner (tests drive them). */
export interface ExportModule extends PlatformModule {
  service: ExportService;
  runner: JobRunner<ExportJob>;
}

/** Builds the /dem routes; `start()` recovers interrupted exports and runs the queue. */
export function exportModule(deps: ExportDeps): ExportModule {
  const logger = deps.logger.child({ module: "export" });
  const service = new ExportService({
    repository: new ExportRepository(deps.db),
    analytics: deps.analytics,
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
  const links = new DownloadLinks();
  let timer: ReturnType<typeof setInterval> | undefined;
  const purge = () =>
    service.purge().catch((error) => logger.error("Export retention failed", { error }));
  return {
    name: "export",
    service,
    runner,
    api: [{ prefix: "/dem", routes: exportRoutes(service, links) }],
    // The signed download links carry their own proof (the browser navigates to them).
    public: [{ prefix: "/dem", routes: exportLinkRoutes(service, links) }],
    async start() {
      await mkdir(deps.dir, { recursive: true });
      await runner.start();
      await purge();
      timer = setInterval(() => void purge(), deps.retentionEveryMs ?? 3_600_000);
    },
    async close() {
      clearInterval(timer);
      await runner.close();
    },
  };
}
