/**
 * @module
 * Power-quality reports (pqm): EN 50160 reports of a node's feeders over 10 minutes to 366 days,
 * run as background jobs that survive a restart (kernel JobRunner over the reports table), with
 * a PDF in the report's language and a CSV; each end publishes `pq.reportFinished`.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import {
  type Db,
  type EventBus,
  JobRunner,
  type Logger,
  type PlatformModule,
} from "../../kernel/mod.ts";
import { ReportCsv } from "./csv.ts";
import { type ExternalReports, externalReports } from "./external.ts";
import { type DirectoryDeps, platformDirectory, type ReportDirectory } from "./directory.ts";
import { type ReportJob, ReportJobs } from "./jobs.ts";
import { powerQualityRoutes } from "./routes.ts";
import { DEFAULT_REPORT_LIMITS, type ReportLimits, ReportsService } from "./service.ts";
import { LimitSetsService } from "./limit_sets.ts";
import "./events.ts";

export type { ReportFinished } from "./events.ts";
export { DEFAULT_REPORT_LIMITS, type ReportLimits, ReportsService } from "./service.ts";
export type { ReportDirectory } from "./directory.ts";
export type { ExternalReports, ReportWindow } from "./external.ts";

/** What the module needs. */
export interface PowerQualityDeps extends DirectoryDeps {
  db: Db;
  analytics: DuckDBConnection;
  bus: EventBus;
  logger: Logger;
  limits?: Partial<ReportLimits>;
  /** How often due reports are looked for (default 5 s). */
  pollMs?: number;
  /** Reports run at once (default 1: the machine's cores serve ingestion first). */
  concurrency?: number;
  /** Tests replace the directory. */
  directory?: ReportDirectory;
}

/** The module and what tests drive. */
export interface PowerQualityModule extends PlatformModule {
  reports: ReportsService;
  runner: JobRunner<ReportJob>;
  /** The reports as the external API (external_v1 pq) reads and creates them. */
  external: ExternalReports;
}

/** Builds the power-quality reports module (/pqm). */
export function powerQualityModule(deps: PowerQualityDeps): PowerQualityModule {
  const directory = deps.directory ?? platformDirectory(deps);
  const jobs = new ReportJobs({ ...deps, directory });
  const runner = new JobRunner(jobs, {
    name: "pq-reports",
    logger: deps.logger,
    concurrency: deps.concurrency ?? 1,
    pollMs: deps.pollMs ?? 5_000,
  });
  const limits = { ...DEFAULT_REPORT_LIMITS, ...deps.limits };
  const limitSets = new LimitSetsService(deps.db);
  const reports = new ReportsService(deps.db, directory, runner, limitSets, limits);
  const csv = new ReportCsv(deps.analytics, directory);
  return {
    name: "power_quality",
    reports,
    runner,
    external: externalReports(deps.db, reports, csv),
    api: [{ prefix: "/pqm", routes: powerQualityRoutes(reports, csv, limitSets) }],
    start: () => runner.start(),
    close: () => runner.close(),
  };
}
