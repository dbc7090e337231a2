/** Drizzle schema of data export (PostgreSQL schema `export`, migrations 0018, 0023). */
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgSchema,
  real,
  smallint,
  text,
  timestamp,
} from "drizzle-orm/pg-core";

export const exportSchema = pgSchema("export");

const ts = (name: string) => timestamp(name, { withTimezone: true });

/** One export of a user; the row is also the job. */
export const exports = exportSchema.table("exports", {
  key: text("key").primaryKey(),
  customerKey: text("customer_key").notNull(),
  userId: text("user_id").notNull(),
  name: text("name").notNull(),
  fileName: text("file_name").notNull(),
  periodFrom: ts("period_from").notNull(),
  periodTo: ts("period_to").notNull(),
  feeders: jsonb("feeders").$type<string[]>().notNull(),
  parameters: jsonb("parameters").$type<string[]>().notNull(),
  interval: text("interval").notNull(),
  format: text("format").notNull(),
  layout: text("layout").notNull().default("long"),
  directoryStructure: text("directory_structure").notNull(),
  scheduleKey: text("schedule_key"),
  status: text("status").notNull(),
  cancelRequested: boolean("cancel_requested").notNull().default(false),
  attempts: smallint("attempts").notNull().default(0),
  rowsDone: bigint("rows_done", { mode: "number" }).notNull().default(0),
  rowsTotal: bigint("rows_total", { mode: "number" }).notNull().default(0),
  percent: real("percent").notNull().default(0),
  stage: text("stage"),
  estimatedBytes: bigint("estimated_bytes", { mode: "number" }).notNull(),
  sizeBytes: bigint("size_bytes", { mode: "number" }),
  errorKey: text("error_key"),
  errorParams: jsonb("error_params").$type<Record<string, unknown>>(),
  createdAt: ts("created_at").notNull().defaultNow(),
  startedAt: ts("started_at"),
  finishedAt: ts("finished_at"),
  expiresAt: ts("expires_at"),
  downloadedAt: ts("downloaded_at"),
}, (t) => [
  index("exports_user_idx").on(t.customerKey, t.userId, t.createdAt.desc()),
  index("exports_status_idx").on(t.status, t.createdAt),
]);

export type ExportRow = typeof exports.$inferSelect;

/** A scheduled export (migration 0023). */
export const schedules = exportSchema.table("schedules", {
  key: text("key").primaryKey(),
  customerKey: text("customer_key").notNull(),
  userId: text("user_id").notNull(),
  name: text("name").notNull(),
  frequency: text("frequency").notNull(),
  feeders: jsonb("feeders").$type<string[]>().notNull(),
  parameters: jsonb("parameters").$type<string[]>().notNull(),
  interval: text("interval").notNull(),
  format: text("format").notNull(),
  layout: text("layout").notNull(),
  directoryStructure: text("directory_structure").notNull(),
  active: boolean("active").notNull().default(true),
  nextRunAt: ts("next_run_at").notNull(),
  lastRunAt: ts("last_run_at"),
  lastExportKey: text("last_export_key"),
  runs: integer("runs").notNull().default(0),
  createdAt: ts("created_at").notNull().defaultNow(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
}, (t) => [index("schedules_user_idx").on(t.customerKey, t.userId, t.createdAt)]);

export type ScheduleRow = typeof schedules.$inferSelect;

/** The HMAC key of the download links (one row). */
export const linkKey = exportSchema.table("link_key", {
  id: smallint("id").primaryKey(),
  secret: text("secret").notNull(),
});
