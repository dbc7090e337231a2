/** Drizzle schema of data export (PostgreSQL schema `export`, migration 0018). */
import {
  bigint,
  boolean,
  index,
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
  directoryStructure: text("directory_structure").notNull(),
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
