/**
 * The data export contract (dem): the constants of spec 9 ("Data export"), the export statuses
 * of spec 4, the inputs of the export calls as zod schemas whose messages are catalogue keys
 * (the web form shows the same keys), and the answers. Pure: imports only zod and the rules.
 */
import { z } from "zod";
import {
  EXPORT_FORMATS,
  EXPORT_INTERVALS,
  EXPORT_LIMITS,
  EXPORT_PARAMETER_KEYS,
  EXPORT_STATUSES,
  exportNameIssue,
  exportPeriodIssue,
  STRUCTURES,
} from "./rules.ts";

export * from "./rules.ts";

const instant = z.string({ error: "validation.required" }).min(1, "validation.required").max(40);
const feederId = z.string().min(1).max(200);

/** The period of an export: ISO 8601 instants, `to` exclusive, at most one year. */
export const exportPeriod = z.object({ from: instant, to: instant }).superRefine((p, ctx) => {
  const key = exportPeriodIssue(p.from, p.to);
  if (key) ctx.addIssue({ code: "custom", path: ["to"], message: key });
});

/** What an export reads (the estimate's input, the start of an export's). */
export const exportSelection = z.object({
  period: exportPeriod,
  feeders: z.array(feederId, { error: "validation.minItems" })
    .min(1, "validation.minItems")
    .max(EXPORT_LIMITS.maxFeeders, "validation.maxItems"),
  parameters: z.array(z.enum(EXPORT_PARAMETER_KEYS, { error: "validation.invalidChoice" }), {
    error: "validation.minItems",
  }).min(1, "validation.minItems"),
  interval: z.enum(EXPORT_INTERVALS, { error: "validation.invalidChoice" }),
  format: z.enum(EXPORT_FORMATS, { error: "validation.invalidChoice" }).default("csv"),
});
export type ExportSelection = z.output<typeof exportSelection>;
/** `POST /dem/exports/estimate`. */
export const estimateInput = exportSelection.meta({ id: "ExportEstimateInput" });

/** `POST /dem/exports`: a selection, the file's name, its format and directory structure. */
export const createExportInput = exportSelection.extend({
  file_name: z.string({ error: "validation.required" }).superRefine((name, ctx) => {
    const issue = exportNameIssue(name);
    if (issue) ctx.addIssue({ code: "custom", message: issue.key, params: issue.params });
  }),
  directory_structure: z.enum(STRUCTURES, { error: "validation.invalidChoice" }).default("flat"),
}).superRefine((input, ctx) => {
  // A DuckDB file is one database: its tables are the structure.
  if (input.format === "duckdb" && input.directory_structure !== "flat") {
    ctx.addIssue({
      code: "custom",
      path: ["directory_structure"],
      message: "export.structureNotForDuckdb",
    });
  }
}).meta({ id: "CreateExportInput" });
export type CreateExportInput = z.output<typeof createExportInput>;
/** What the web sends to start an export. */
export type CreateExportBody = z.input<typeof createExportInput>;

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
  parameters: z.array(z.enum(EXPORT_PARAMETER_KEYS)),
  interval: z.enum(EXPORT_INTERVALS),
  format: z.enum(EXPORT_FORMATS),
  directory_structure: z.enum(STRUCTURES),
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
