/**
 * Drizzle schema of auto-analyses, their runs and the weekly grid-wide compliance (PostgreSQL
 * schema `power_quality`, migration 0022).
 */
import {
  boolean,
  index,
  integer,
  jsonb,
  primaryKey,
  real,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { powerQualitySchema } from "../schema.ts";
import type { LimitOverridesInput } from "../contract.ts";
import { AUTO_ANALYSIS_STATUSES, AUTO_SCOPES, COMPLIANCE_STATUSES } from "./contract.ts";
import { REPORT_LANGUAGES, STANDARDS } from "../contract.ts";

const ts = (name: string) => timestamp(name, { withTimezone: true });

/** A catalogue reason. */
export interface RunFailure {
  key: string;
  code: number | null;
  params: Record<string, unknown>;
}

/** What a run did for one node: the report it made or why it made none. */
export interface RunItem {
  node_id: string;
  node_name: string;
  report_key: string | null;
  failure: RunFailure | null;
}

/** A recurring weekly analysis; `next_run_at` is the claim (advanced atomically by one run). */
export const autoAnalyses = powerQualitySchema.table("auto_analyses", {
  key: text("key").primaryKey(),
  customerKey: text("customer_key").notNull(),
  name: text("name").notNull(),
  language: text("language", { enum: REPORT_LANGUAGES }).notNull(),
  scope: text("scope", { enum: AUTO_SCOPES }).notNull(),
  /** [{id, name}] of the chosen nodes (scope NODES). */
  nodes: jsonb("nodes").$type<{ id: string; name: string }[]>().notNull(),
  groupId: text("group_id"),
  groupName: text("group_name"),
  standard: text("standard", { enum: STANDARDS }).notNull(),
  limitSet: text("limit_set").notNull(),
  limitSetKey: text("limit_set_key"),
  /** The custom set's overrides when saved; null: EN 50160. */
  limits: jsonb("limits").$type<LimitOverridesInput>(),
  weekday: smallint("weekday").notNull(),
  hour: smallint("hour").notNull(),
  timezone: text("timezone").notNull(),
  startDate: text("start_date").notNull(),
  status: text("status", { enum: AUTO_ANALYSIS_STATUSES }).notNull(),
  nextRunAt: ts("next_run_at"),
  lastRunAt: ts("last_run_at"),
  createdBy: text("created_by").notNull(),
  createdAt: ts("created_at").notNull().defaultNow(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
}, (t) => [index("auto_analyses_due_idx").on(t.status, t.nextRunAt)]);
export type AutoAnalysisRow = typeof autoAnalyses.$inferSelect;

/**
 * One run: PENDING (claimed from the schedule), CREATING (its job runs), CREATED (its reports
 * exist, inserted in the same transaction as this status) or FAILED. One per due time.
 */
export const autoRuns = powerQualitySchema.table("auto_runs", {
  key: text("key").primaryKey(),
  analysisKey: text("analysis_key").notNull().references(() => autoAnalyses.key, {
    onDelete: "cascade",
  }),
  customerKey: text("customer_key").notNull(),
  scheduledFor: ts("scheduled_for").notNull(),
  weekStart: ts("week_start").notNull(),
  manual: boolean("manual").notNull().default(false),
  status: text("status", { enum: ["PENDING", "CREATING", "CREATED", "FAILED"] }).notNull(),
  attempts: integer("attempts").notNull().default(0),
  items: jsonb("items").$type<RunItem[]>().notNull().default([]),
  failure: jsonb("failure").$type<RunFailure>(),
  createdAt: ts("created_at").notNull().defaultNow(),
  finishedAt: ts("finished_at"),
}, (t) => [
  uniqueIndex("auto_runs_once_idx").on(t.analysisKey, t.scheduledFor),
  index("auto_runs_status_idx").on(t.status),
]);
export type AutoRunRow = typeof autoRuns.$inferSelect;

/** The grid-wide evaluation of one customer's ISO week (a job: PENDING -> RUNNING -> DONE). */
export const complianceWeeks = powerQualitySchema.table("compliance_weeks", {
  customerKey: text("customer_key").notNull(),
  weekStart: ts("week_start").notNull(),
  status: text("status", { enum: COMPLIANCE_STATUSES }).notNull(),
  dueAt: ts("due_at").notNull(),
  attempts: integer("attempts").notNull().default(0),
  nodes: integer("nodes").notNull().default(0),
  failure: jsonb("failure").$type<RunFailure>(),
  startedAt: ts("started_at"),
  finishedAt: ts("finished_at"),
}, (t) => [primaryKey({ columns: [t.customerKey, t.weekStart] })]);
export type ComplianceWeekRow = typeof complianceWeeks.$inferSelect;

/** One node's verdict of a week. */
export const complianceVerdicts = powerQualitySchema.table("compliance_verdicts", {
  customerKey: text("customer_key").notNull(),
  weekStart: ts("week_start").notNull(),
  nodeId: text("node_id").notNull(),
  nodeName: text("node_name").notNull(),
  ewName: text("ew_name").notNull(),
  lvGroup: text("lv_group").notNull(),
  latitude: real("latitude").notNull(),
  longitude: real("longitude").notNull(),
  passed: boolean("passed"),
  failed: jsonb("failed").$type<string[]>().notNull(),
  availabilityPct: real("availability_pct").notNull(),
  feeders: jsonb("feeders").$type<
    { id: string; name: string; passed: boolean | null; failed: string[] }[]
  >().notNull(),
}, (t) => [primaryKey({ columns: [t.customerKey, t.weekStart, t.nodeId] })]);
export type ComplianceVerdictRow = typeof complianceVerdicts.$inferSelect;
