/**
 * The contract of auto-analyses (spec 2.1 #auto-analyses) and of the grid-wide compliance view:
 * statuses and the actions each allows (code 503 otherwise), the schedule's fields, the inputs
 * and answers of `/pqm/auto-analyses` and `/pqm/compliance`, shared with the web app. Pure:
 * imports only zod and the module's contract.
 */
import { z } from "zod";
import {
  REPORT_LANGUAGES,
  REPORT_NAME,
  REPORT_RESULTS,
  REPORT_STATUSES,
  reportName,
  STANDARDS,
} from "../contract.ts";

export { REPORT_NAME };

/** An auto-analysis runs every week (ACTIVE) or waits (PAUSED). */
export const AUTO_ANALYSIS_STATUSES = ["ACTIVE", "PAUSED"] as const;
export type AutoAnalysisStatus = (typeof AUTO_ANALYSIS_STATUSES)[number];

/** What an auto-analysis covers: chosen nodes, or a whole LV group or MV feeder group. */
export const AUTO_SCOPES = ["NODES", "LV_GROUP", "MV_GROUP"] as const;
export type AutoScope = (typeof AUTO_SCOPES)[number];

/** The actions on an auto-analysis and the statuses each is allowed in (else 503). */
export type AutoAction = "pause" | "resume" | "edit" | "delete" | "run";
export const AUTO_ACTION_STATUSES: Readonly<Record<AutoAction, readonly AutoAnalysisStatus[]>> = {
  pause: ["ACTIVE"],
  resume: ["PAUSED"],
  // Pause first: a change or a deletion never races a due run.
  edit: ["PAUSED"],
  delete: ["PAUSED"],
  run: ["ACTIVE", "PAUSED"],
};

/** Nodes one auto-analysis may name (a group has no limit: it is the group at each run). */
export const AUTO_MAX_NODES = 200;
/** ISO weekdays, Monday 1 to Sunday 7. */
export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
/** Spec 9: PQ history lists 12 per page. */
export const RUNS_PER_PAGE = 12;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** `POST /pqm/auto-analyses`, `PUT /pqm/auto-analyses/{key}`. */
export const autoAnalysisInput = z.strictObject({
  name: reportName,
  language: z.enum(REPORT_LANGUAGES),
  scope: z.enum(AUTO_SCOPES),
  /** Node ids (scope NODES). */
  nodes: z.array(z.string().min(1).max(64)).max(AUTO_MAX_NODES, "validation.maxItems").default(
    [],
  ),
  /** The LV group or MV feeder group id (scopes LV_GROUP, MV_GROUP). */
  group: z.string().max(64).optional(),
  standard: z.enum(STANDARDS).default("EN50160"),
  /** A custom limit set's key (standard CUSTOM). */
  limit_set: z.string().max(64).optional(),
  /** ISO weekday of the runs, Monday 1. */
  weekday: z.number({ error: "validation.required" }).int().min(1).max(7),
  /** Hour of the runs on the customer's wall clock (its time zone). */
  hour: z.number({ error: "validation.required" }).int().min(0).max(23).default(6),
  /** First day of the schedule, `YYYY-MM-DD` in the customer's time zone; may be in the past. */
  start: z.string({ error: "validation.required" }).regex(DATE, "validation.dateInvalid"),
}).superRefine((v, ctx) => {
  if (v.scope === "NODES" && v.nodes.length === 0) {
    ctx.addIssue({ code: "custom", path: ["nodes"], message: "validation.required" });
  }
  if (v.scope !== "NODES" && !v.group) {
    ctx.addIssue({ code: "custom", path: ["group"], message: "validation.required" });
  }
  if (v.standard === "CUSTOM" && !v.limit_set) {
    ctx.addIssue({ code: "custom", path: ["limit_set"], message: "validation.required" });
  }
  if (Number.isNaN(Date.parse(`${v.start}T00:00:00Z`))) {
    ctx.addIssue({ code: "custom", path: ["start"], message: "validation.dateInvalid" });
  }
});
export type AutoAnalysisInput = z.output<typeof autoAnalysisInput>;
export type AutoAnalysisBody = z.input<typeof autoAnalysisInput>;

/** An auto-analysis as the list shows it. */
export const autoAnalysisDto = z.object({
  key: z.string(),
  name: z.string(),
  language: z.enum(REPORT_LANGUAGES),
  scope: z.enum(AUTO_SCOPES),
  nodes: z.array(z.object({ id: z.string(), name: z.string() })),
  group: z.object({ id: z.string(), name: z.string() }).nullable(),
  standard: z.enum(STANDARDS),
  limit_set: z.string(),
  limit_set_key: z.string().nullable(),
  weekday: z.number(),
  hour: z.number(),
  timezone: z.string(),
  start: z.string(),
  status: z.enum(AUTO_ANALYSIS_STATUSES),
  /** The next due run (null while paused). */
  next_run: z.string().nullable(),
  last_run: z.string().nullable(),
  created_at: z.string(),
}).meta({ id: "PqAutoAnalysisDto" });
export type AutoAnalysisDto = z.output<typeof autoAnalysisDto>;

/** `GET /pqm/auto-analyses`. */
export const autoAnalysesDto = z.object({
  auto_analyses: z.array(autoAnalysisDto),
  /** The data lifetime (code 520) and future limit (513) the form mirrors, days. */
  data_lifetime_days: z.number(),
  max_future_days: z.number(),
  timezone: z.string(),
}).meta({ id: "PqAutoAnalysesDto" });
export type AutoAnalysesDto = z.output<typeof autoAnalysesDto>;

/** How a run is: creating its reports, running them, done, or failed before any report. */
export const RUN_STATUSES = ["PENDING", "IN_PROGRESS", "COMPLETED", "FAILED"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

const failure = z.object({
  key: z.string(),
  code: z.number().nullable(),
  params: z.record(z.string(), z.unknown()),
});

/** One run of the history: the week it analysed and the reports it made. */
export const autoRunDto = z.object({
  key: z.string(),
  /** When it was due (or asked for, `manual`). */
  scheduled_for: z.string(),
  manual: z.boolean(),
  week: z.object({ label: z.string(), from: z.string(), to: z.string() }),
  status: z.enum(RUN_STATUSES),
  failure: failure.nullable(),
  passed: z.number(),
  not_passed: z.number(),
  failed: z.number(),
  items: z.array(z.object({
    node_id: z.string(),
    node_name: z.string(),
    /** The report made (null: none, see `failure`; or the report was deleted since). */
    report: z.object({
      key: z.string(),
      name: z.string(),
      status: z.enum(REPORT_STATUSES),
      result: z.enum(REPORT_RESULTS).nullable(),
    }).nullable(),
    failure: failure.nullable(),
  })),
}).meta({ id: "PqAutoRunDto" });
export type AutoRunDto = z.output<typeof autoRunDto>;

/** `GET /pqm/auto-analyses/{key}/runs`: newest first, 12 per page. */
export const autoRunsQuery = z.object({
  page: z.coerce.number().int().min(0).max(100_000).default(0),
});
export const autoRunPageDto = z.object({
  runs: z.array(autoRunDto),
  page: z.number(),
  size: z.number(),
  total: z.number(),
}).meta({ id: "PqAutoRunPageDto" });
export type AutoRunPageDto = z.output<typeof autoRunPageDto>;

// ---- Grid-wide compliance (beyond the spec) -------------------------------------------------

/** The weekly evaluation of a whole grid. */
export const COMPLIANCE_STATUSES = ["PENDING", "RUNNING", "DONE", "FAILED"] as const;

/** Verdict filter of the compliance list: all, passed, not passed, not evaluable. */
export const COMPLIANCE_VERDICTS = ["ALL", "PASSED", "NOT_PASSED", "NONE"] as const;
export type ComplianceVerdict = (typeof COMPLIANCE_VERDICTS)[number];

/** Nodes per page of the compliance list. */
export const COMPLIANCE_PAGE_SIZE = 50;

/** `GET /pqm/compliance/map?week=YYYY-MM-DD` (a Monday; default: the last evaluated week). */
export const complianceWeekQuery = z.object({
  week: z.string().regex(DATE, "validation.dateInvalid").optional(),
});

/**
 * `GET /pqm/compliance?week=YYYY-MM-DD&verdict=NOT_PASSED&page=0`: one page (0-based, 50
 * nodes, by node name) of a week's verdicts with that verdict.
 */
export const complianceQuery = complianceWeekQuery.extend({
  verdict: z.enum(COMPLIANCE_VERDICTS, { error: "validation.invalidChoice" }).default("ALL"),
  page: z.coerce.number({ error: "validation.invalidValue" }).int("validation.invalidValue")
    .min(0, "validation.invalidValue").max(100_000, "validation.invalidValue").default(0),
});

/** One node's EN 50160 verdict of a week. */
export const complianceNodeDto = z.object({
  node_id: z.string(),
  node_name: z.string(),
  ew_name: z.string(),
  lv_group: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  /** True passed, false not passed, null not evaluable (no valid interval). */
  passed: z.boolean().nullable(),
  /** Parameters that failed on any feeder (voltage, frequency, flicker, unbalance, thd, hN). */
  failed: z.array(z.string()),
  availability_pct: z.number(),
  feeders: z.array(z.object({
    id: z.string(),
    name: z.string(),
    passed: z.boolean().nullable(),
    failed: z.array(z.string()),
  })),
  /** A completed report of this node over exactly this week, when one exists. */
  report_key: z.string().nullable(),
});
export type ComplianceNodeDto = z.output<typeof complianceNodeDto>;

const complianceWeekDto = z.object({
  label: z.string(),
  from: z.string(),
  to: z.string(),
  status: z.enum(COMPLIANCE_STATUSES),
  evaluated_at: z.string().nullable(),
});

/** `GET /pqm/compliance`: the week, its counts, and one page of the filtered nodes. */
export const complianceDto = z.object({
  week: complianceWeekDto.nullable(),
  /** Evaluated weeks, newest first (Mondays, `YYYY-MM-DD`). */
  weeks: z.array(z.string()),
  nodes: z.array(complianceNodeDto),
  /** The week's counts (every node, whatever the filter). */
  passed: z.number(),
  not_passed: z.number(),
  not_evaluable: z.number(),
  /** 0-based page, its size, and the number of nodes with the filtered verdict. */
  page: z.number(),
  size: z.number(),
  total: z.number(),
}).meta({ id: "PqComplianceDto" });
export type ComplianceDto = z.output<typeof complianceDto>;

/** One node on the compliance map. */
export const complianceMapNodeDto = complianceNodeDto.pick({
  node_id: true,
  node_name: true,
  ew_name: true,
  latitude: true,
  longitude: true,
  passed: true,
  failed: true,
  report_key: true,
});
export type ComplianceMapNodeDto = z.output<typeof complianceMapNodeDto>;

/** `GET /pqm/compliance/map`: every node of the week with its verdict and place. */
export const complianceMapDto = z.object({
  week: complianceWeekDto.nullable(),
  nodes: z.array(complianceMapNodeDto),
}).meta({ id: "PqComplianceMapDto" });
export type ComplianceMapDto = z.output<typeof complianceMapDto>;

/** `POST /pqm/compliance/evaluate` answer (202): the week queued again. */
export const complianceQueuedDto = z.object({
  week: z.string(),
  status: z.enum(COMPLIANCE_STATUSES),
}).meta({ id: "PqComplianceQueuedDto" });
