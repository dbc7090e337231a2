/** Drizzle schema of power-quality reports (PostgreSQL schema `power_quality`, migration 0016). */
import {
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgSchema,
  smallint,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import {
  type FeederSummaryDto,
  type LimitOverridesInput,
  REPORT_LANGUAGES,
  REPORT_RESULTS,
  REPORT_STAGES,
  REPORT_STATUSES,
  STANDARDS,
} from "./contract.ts";

/** A feeder a report covers; MV feeders are evaluated against the MV nominal voltage. */
export interface ReportFeeder {
  id: string;
  name: string;
  slot: number;
  level?: "LV" | "MV";
}

export const powerQualitySchema = pgSchema("power_quality");

const ts = (name: string) => timestamp(name, { withTimezone: true });
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => "bytea",
});

/** Why a report failed (a catalogue entry). */
export interface Failure {
  key: string;
  code: number | null;
  params: Record<string, unknown>;
}

/** A report: what was asked, its job state (status, stage, percent) and its result. */
export const reports = powerQualitySchema.table("reports", {
  key: text("key").primaryKey(),
  customerKey: text("customer_key").notNull(),
  name: text("name").notNull(),
  language: text("language", { enum: REPORT_LANGUAGES }).notNull(),
  nodeId: text("node_id").notNull(),
  nodeName: text("node_name").notNull(),
  ewName: text("ew_name").notNull(),
  feeders: jsonb("feeders").$type<ReportFeeder[]>().notNull(),
  startAt: ts("start_at").notNull(),
  endAt: ts("end_at").notNull(),
  standard: text("standard", { enum: STANDARDS }).notNull(),
  limitSet: text("limit_set").notNull(),
  status: text("status", { enum: REPORT_STATUSES }).notNull(),
  result: text("result", { enum: REPORT_RESULTS }),
  stage: text("stage", { enum: REPORT_STAGES }),
  percent: smallint("percent").notNull().default(0),
  attempts: integer("attempts").notNull().default(0),
  dueAt: ts("due_at").notNull(),
  failure: jsonb("failure").$type<Failure>(),
  summary: jsonb("summary").$type<FeederSummaryDto[]>(),
  createdBy: text("created_by").notNull(),
  createdAt: ts("created_at").notNull().defaultNow(),
  startedAt: ts("started_at"),
  finishedAt: ts("finished_at"),
  hasPdf: boolean("has_pdf").notNull().default(false),
  /** The custom limit set as it was when the report was created; null: EN 50160. */
  limits: jsonb("limits").$type<LimitOverridesInput>(),
  /** The auto-analysis run that made the report (migration 0022); null: made by a user. */
  autoRunKey: text("auto_run_key"),
}, (t) => [
  index("reports_customer_created_idx").on(t.customerKey, t.createdAt),
  index("reports_due_idx").on(t.status, t.dueAt),
  index("reports_auto_run_idx").on(t.autoRunKey),
]);
export type ReportRow = typeof reports.$inferSelect;

/** A customer's custom limit set: EN 50160 with the admin's overrides. */
export const limitSets = powerQualitySchema.table("limit_sets", {
  key: text("key").primaryKey(),
  customerKey: text("customer_key").notNull(),
  name: text("name").notNull(),
  overrides: jsonb("overrides").$type<LimitOverridesInput>().notNull(),
  updatedBy: text("updated_by").notNull(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});
export type LimitSetRow = typeof limitSets.$inferSelect;

/** The generated PDF of a completed report. */
export const reportFiles = powerQualitySchema.table("report_files", {
  reportKey: text("report_key").primaryKey(),
  pdf: bytea("pdf").notNull(),
  createdAt: ts("created_at").notNull().defaultNow(),
});
