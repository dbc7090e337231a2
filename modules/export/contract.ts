/**
 * The data export contract (dem): the constants of spec 9 ("Data export"), the export statuses
 * of spec 4, the rules shared with the web form (name, period, the file name GDE_<name>_<period>,
 * the size estimate), the inputs of the export calls as zod schemas whose messages are
 * catalogue keys (the web form shows the same keys), and the answers; the parameters and the
 * size estimate live in export_rules.ts (re-exported). Pure: imports only zod and that file.
 */
import { z } from "zod";
import {
  EXPORT_FORMATS,
  EXPORT_INTERVALS,
  EXPORT_LAYOUTS,
  EXPORT_PARAMETER_KEYS,
  type ExportFormat,
  type ExportInterval,
  type ExportLayout,
  exportParameter,
} from "./export_rules.ts";

export * from "./export_rules.ts";

// ---- Rules and constants ------------------------------------------------------------------

const DAY_MS = 86_400_000;

/** Spec 9 "Data export" and the choices of docs/export.md where the spec is silent. */
export const EXPORT_LIMITS = Object.freeze({
  /** Files kept 7 days (maximum availability). */
  retentionDays: 7,
  /** Maximum (estimated) size in bytes. */
  maxBytes: 1e9,
  /** Period at most one year (366 days: a leap year's). */
  maxPeriodDays: 366,
  /** Exports of one customer running at once; the others wait in the queue. */
  runningPerCustomer: 2,
  maxFeeders: 500,
  maxNameLength: 60,
  filePrefix: "GDE_",
  /** Scheduled exports of one user. */
  maxSchedulesPerUser: 20,
});

/** Scheduled exports: each run exports the previous day, week (Monday on) or month. */
export const SCHEDULE_FREQUENCIES = ["DAILY", "WEEKLY", "MONTHLY"] as const;
export type ScheduleFrequency = (typeof SCHEDULE_FREQUENCIES)[number];
/** The longest period of a run (a schedule's size is estimated on it). */
export const LONGEST_PERIOD_DAYS: Readonly<Record<ScheduleFrequency, number>> = {
  DAILY: 1,
  WEEKLY: 7,
  MONTHLY: 31,
};

/** Flat, or folders per station / node / feeder / month (each level inside the previous). */
export const STRUCTURES = ["flat", "station", "node", "feeder", "month"] as const;
export type DirectoryStructure = (typeof STRUCTURES)[number];

/** Spec 4 export statuses, and QUEUED (waiting for a free slot, beyond the spec). */
export const EXPORT_STATUSES = [
  "QUEUED",
  "IN_PROGRESS",
  "FINISHED",
  "FAILED",
  "CANCELLED",
  "DELETED",
  "DOWNLOADED",
] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

/** Statuses whose file can be downloaded. */
export const DOWNLOADABLE: readonly ExportStatus[] = ["FINISHED", "DOWNLOADED"];
/** Statuses of an export that is not over yet (cancel applies). */
export const ACTIVE: readonly ExportStatus[] = ["QUEUED", "IN_PROGRESS"];

/** Characters not allowed in names (spec 5), and control characters. */
// deno-lint-ignore no-control-regex
const FORBIDDEN = /[:<>"/\\|?*!\u0000-\u001f]/;

/** The first rule a file name breaks (a catalogue key), or null. */
export function exportNameIssue(
  name: string,
): { key: string; params: Record<string, unknown> } | null {
  const trimmed = name.trim();
  if (!trimmed) return { key: "validation.required", params: {} };
  if (trimmed.length > EXPORT_LIMITS.maxNameLength) {
    return { key: "validation.nameMax", params: { count: EXPORT_LIMITS.maxNameLength } };
  }
  if (FORBIDDEN.test(trimmed)) return { key: "validation.forbiddenChars", params: {} };
  return null;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** Epoch ms of an ISO 8601 instant with an offset, or NaN. */
export function parseExportInstant(text: string): number {
  return ISO.test(text) ? Date.parse(text) : NaN;
}

/** The key of the rule a period breaks, or null (from before to, at most one year). */
export function exportPeriodIssue(from: string, to: string): string | null {
  const a = parseExportInstant(from);
  const b = parseExportInstant(to);
  if (!Number.isFinite(a) || !Number.isFinite(b)) return "validation.dateInvalid";
  if (a >= b) return "data.periodIncorrect";
  if (b - a > EXPORT_LIMITS.maxPeriodDays * DAY_MS) return "validation.exportPeriodMax";
  return null;
}

/** GDE_<name>_<from>-<to> (days of `timeZone`, the last one included) with its extension. */
export function exportFileName(
  name: string,
  from: string,
  to: string,
  ext: string,
  timeZone = "UTC",
): string {
  // The days of the customer's time zone: a local day's file is named after that one day.
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat("en-CA", { timeZone, dateStyle: "short" });
  } catch {
    format = new Intl.DateTimeFormat("en-CA", { timeZone: "UTC", dateStyle: "short" });
  }
  const day = (ms: number) => format.format(new Date(ms)).replaceAll("-", "");
  const safe = name.trim().replace(/\s+/g, "_");
  const a = parseExportInstant(from);
  const b = parseExportInstant(to) - 1;
  return `${EXPORT_LIMITS.filePrefix}${safe}_${day(a)}-${day(b)}.${ext}`;
}

// ---- Inputs and answers -------------------------------------------------------------------

const instant = z.string({ error: "validation.required" }).min(1, "validation.required").max(40);
const feederId = z.string().min(1).max(200);

/** The period of an export: ISO 8601 instants, `to` exclusive, at most one year. */
export const exportPeriod = z.object({ from: instant, to: instant }).superRefine((p, ctx) => {
  const key = exportPeriodIssue(p.from, p.to);
  if (key) ctx.addIssue({ code: "custom", path: ["to"], message: key });
});

/** The rules between the fields of a selection (the form shows the same keys). */
function selectionRules(
  input: {
    parameters: readonly string[];
    interval: ExportInterval;
    format: ExportFormat;
    layout: ExportLayout;
    directory_structure?: DirectoryStructure;
  },
  ctx: z.RefinementCtx,
): void {
  // The PQ record is a 10-minute value: no 20-s value of it exists.
  if (input.interval === "20s" && input.parameters.some((p) => exportParameter(p)?.pq)) {
    ctx.addIssue({ code: "custom", path: ["parameters"], message: "export.pqNotAt20s" });
  }
  // A DuckDB file is one database: its tables are the structure, its layout the long one.
  if (input.format === "duckdb" && input.layout !== "long") {
    ctx.addIssue({ code: "custom", path: ["layout"], message: "export.layoutNotForDuckdb" });
  }
  if (input.format === "duckdb" && (input.directory_structure ?? "flat") !== "flat") {
    ctx.addIssue({
      code: "custom",
      path: ["directory_structure"],
      message: "export.structureNotForDuckdb",
    });
  }
}

/** One parameter's key (a named type: the list is long). */
const parameterKey = z.enum(EXPORT_PARAMETER_KEYS, { error: "validation.invalidChoice" })
  .meta({ id: "ExportParameterKey" });

/** What an export reads besides its period. */
const contentShape = {
  feeders: z.array(feederId, { error: "validation.minItems" })
    .min(1, "validation.minItems")
    .max(EXPORT_LIMITS.maxFeeders, "validation.maxItems"),
  parameters: z.array(parameterKey, { error: "validation.minItems" })
    .min(1, "validation.minItems"),
  interval: z.enum(EXPORT_INTERVALS, { error: "validation.invalidChoice" }),
  format: z.enum(EXPORT_FORMATS, { error: "validation.invalidChoice" }).default("csv"),
  layout: z.enum(EXPORT_LAYOUTS, { error: "validation.invalidChoice" }).default("long"),
};

/** The file's name and directory structure (an export's, a schedule's). */
const fileShape = {
  file_name: z.string({ error: "validation.required" }).superRefine((name, ctx) => {
    const issue = exportNameIssue(name);
    if (issue) ctx.addIssue({ code: "custom", message: issue.key, params: issue.params });
  }),
  directory_structure: z.enum(STRUCTURES, { error: "validation.invalidChoice" }).default("flat"),
};

/** What an export reads (the estimate's input, the start of an export's). */
export const exportSelection = z.object({ period: exportPeriod, ...contentShape })
  .superRefine(selectionRules);
export type ExportSelection = z.output<typeof exportSelection>;
/** `POST /dem/exports/estimate`. */
export const estimateInput = exportSelection.meta({ id: "ExportEstimateInput" });

/** `POST /dem/exports`: a selection, the file's name, its format and directory structure. */
export const createExportInput = z.object({ period: exportPeriod, ...contentShape, ...fileShape })
  .superRefine(selectionRules).meta({ id: "CreateExportInput" });
export type CreateExportInput = z.output<typeof createExportInput>;
/** What the web sends to start an export. */
export type CreateExportBody = z.input<typeof createExportInput>;

/**
 * `POST /dem/schedules`, `PUT /dem/schedules/{key}`: the selection without its period (each run
 * exports the previous day, week or month in the customer's time zone), paused when not active.
 */
export const scheduleInput = z.object({
  ...contentShape,
  ...fileShape,
  frequency: z.enum(SCHEDULE_FREQUENCIES, { error: "validation.invalidChoice" }),
  active: z.boolean().default(true),
}).superRefine(selectionRules).meta({ id: "ExportScheduleInput" });
export type ScheduleInput = z.output<typeof scheduleInput>;
export type ScheduleBody = z.input<typeof scheduleInput>;

/** One scheduled export of the user. */
export const scheduleDto = z.object({
  key: z.string(),
  name: z.string(),
  frequency: z.enum(SCHEDULE_FREQUENCIES),
  feeders: z.array(z.string()),
  parameters: z.array(parameterKey),
  interval: z.enum(EXPORT_INTERVALS),
  format: z.enum(EXPORT_FORMATS),
  layout: z.enum(EXPORT_LAYOUTS),
  directory_structure: z.enum(STRUCTURES),
  active: z.boolean(),
  /** When the next run starts (the end of its period plus a delay for the aggregates). */
  next_run_at: z.string(),
  last_run_at: z.string().nullable(),
  /** The export of the last run. */
  last_export_key: z.string().nullable(),
  runs: z.number(),
  created_at: z.string(),
}).meta({ id: "ExportScheduleDto" });
export type ScheduleDto = z.output<typeof scheduleDto>;
export const schedulesDto = z.object({ items: z.array(scheduleDto) })
  .meta({ id: "ExportSchedulesDto" });
export type SchedulesDto = z.output<typeof schedulesDto>;

/** `GET /dem/exports?page=&size=`. */
export const exportPageQuery = z.object({
  page: z.coerce.number().int().min(0).max(100_000).default(0),
  size: z.coerce.number().int().min(1).max(100).default(20),
});
export type ExportPageQuery = z.output<typeof exportPageQuery>;

/** `POST /dem/exports/estimate` answer. */
export const estimateDto = z.object({
  /** Rows of the long layout (every slot of every series and parameter, gaps included). */
  rows: z.number(),
  estimated_bytes: z.number(),
  max_bytes: z.number(),
  /** Over `max_bytes`: the export would be refused. */
  too_large: z.boolean(),
}).meta({ id: "ExportEstimateDto" });
export type EstimateDto = z.output<typeof estimateDto>;

/** One export of the user. */
export const exportDto = z.object({
  key: z.string(),
  /** The name the user gave. */
  name: z.string(),
  /** The downloaded file: GDE_<name>_<period>.zip. */
  file_name: z.string(),
  period: z.object({ from: z.string(), to: z.string() }),
  feeders: z.array(z.string()),
  parameters: z.array(parameterKey),
  interval: z.enum(EXPORT_INTERVALS),
  format: z.enum(EXPORT_FORMATS),
  layout: z.enum(EXPORT_LAYOUTS),
  directory_structure: z.enum(STRUCTURES),
  /** The schedule whose run this export is (null: started by hand). */
  schedule_key: z.string().nullable(),
  status: z.enum(EXPORT_STATUSES),
  progress: z.object({
    rows_done: z.number(),
    rows_total: z.number(),
    percent: z.number(),
    stage: z.string().nullable(),
  }),
  estimated_bytes: z.number(),
  size_bytes: z.number().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  /** When the file is deleted (7 days after it was finished). */
  expires_at: z.string().nullable(),
  downloaded_at: z.string().nullable(),
  /** Why it failed: a catalogue key and its params. */
  error: z.object({ key: z.string(), params: z.record(z.string(), z.unknown()) }).nullable(),
}).meta({ id: "ExportDto" });
export type ExportDto = z.output<typeof exportDto>;

export const exportPageDto = z.object({
  items: z.array(exportDto),
  total: z.number(),
  page: z.number(),
  size: z.number(),
}).meta({ id: "ExportPageDto" });
export type ExportPageDto = z.output<typeof exportPageDto>;

/** `POST /dem/exports` answer (202). */
export const createdDto = z.object({ key: z.string() }).meta({ id: "ExportCreatedDto" });

/** A feeder the form can pick, with the groups it belongs to (picker and search). */
export const exportFeederDto = z.object({
  feeder_id: z.string(),
  feeder_name: z.string(),
  feeder_type: z.string(),
  node_id: z.string(),
  node_name: z.string(),
  station_name: z.string(),
  lv_group_id: z.string(),
  lv_group_name: z.string(),
  station_group_id: z.string(),
  station_group_name: z.string(),
});
export type ExportFeederDto = z.output<typeof exportFeederDto>;
export const exportFeedersDto = z.object({ feeders: z.array(exportFeederDto) })
  .meta({ id: "ExportFeedersDto" });
export type ExportFeedersDto = z.output<typeof exportFeedersDto>;

/** `GET /dem/usage` (administrators): the disk the export files take. */
export const exportUsageDto = z.object({ files: z.number(), bytes: z.number() })
  .meta({ id: "ExportUsageDto" });
export type ExportUsageDto = z.output<typeof exportUsageDto>;

/** `POST /dem/exports/{key}/link` answer: a download address valid 5 minutes. */
export const linkDto = z.object({ url: z.string() }).meta({ id: "ExportLinkDto" });
export type LinkDto = z.output<typeof linkDto>;
/** `GET /dem/files/{key}?token=`. */
export const linkQuery = z.object({ token: z.string().min(1).max(500) });
