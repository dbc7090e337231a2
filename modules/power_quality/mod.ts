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
import { autoAnalysisRoutes } from "./auto/routes.ts";
import { AutoAnalysesService } from "./auto/service.ts";
import { AutoRunJobs, type RunJob } from "./auto/runs.ts";
import { ComplianceJobs, type WeekJob } from "./auto/compliance.ts";
import { ComplianceService } from "./auto/compliance_view.ts";
import "./events.ts";

export type { ReportFinished } from "./events.ts";
export { DEFAULT_REPORT_LIMITS, type ReportLimits, ReportsService } from "./service.ts";
export type { ReportDirectory } from "./directory.ts";
export type { ExternalReports, ReportWindow } from "./external.ts";
export { powerQualityCustomers } from "./auto/compliance.ts";

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
  /**
   * Customers whose grid is evaluated every week (compliance view); default: none. main.ts
   * passes those whose applications list power quality.
   */
  complianceCustomers?: () => Promise<string[]>;
}

/** The module and what tests drive. */
export interface PowerQualityModule extends PlatformModule {
  reports: ReportsService;
  runner: JobRunner<ReportJob>;
  /** The reports as the external API (external_v1 pq) reads and creates them. */
  external: ExternalReports;
  autoAnalyses: AutoAnalysesService;
  autoRuns: JobRunner<RunJob>;
  compliance: ComplianceService;
  complianceRunner: JobRunner<WeekJob>;
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
  // Auto-analyses (#auto-analyses): their runs insert ordinary reports and wake `runner`.
  const structure = async (key: string) => (await deps.topology.get(key)).structure;
  const autoRuns = new JobRunner(
    new AutoRunJobs({ ...deps, directory, structure, reports: runner }),
    { name: "pq-auto-analyses", logger: deps.logger, pollMs: deps.pollMs ?? 5_000 },
  );
  const autoAnalyses = new AutoAnalysesService({
    db: deps.db,
    directory,
    structure,
    limitSets,
    limits,
    runs: autoRuns,
  });
  // The grid-wide compliance: every week, one job per customer.
  const complianceRunner = new JobRunner(
    new ComplianceJobs({
      ...deps,
      directory,
      structure,
      customerKeys: deps.complianceCustomers ?? (() => Promise.resolve([])),
    }),
    { name: "pq-compliance", logger: deps.logger, pollMs: Math.max(deps.pollMs ?? 5_000, 5_000) },
  );
  const compliance = new ComplianceService(deps.db, complianceRunner);
  return {
    name: "power_quality",
    reports,
    runner,
    external: externalReports(deps.db, reports, csv),
    autoAnalyses,
    autoRuns,
    compliance,
    complianceRunner,
    api: [
      { prefix: "/pqm", routes: powerQualityRoutes(reports, csv, limitSets) },
      { prefix: "/pqm", routes: autoAnalysisRoutes(autoAnalyses, compliance) },
    ],
    start: async () => {
      await runner.start();
      await autoRuns.start();
      await complianceRunner.start();
    },
    close: async () => {
      await complianceRunner.close();
      await autoRuns.close();
      await runner.close();
    },
  };
}
