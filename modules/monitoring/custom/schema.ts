/** Drizzle schema of custom monitoring (PostgreSQL schema `monitoring`, migration 0006). */
import { boolean, integer, numeric, pgSchema, text, timestamp } from "drizzle-orm/pg-core";

export const monitoringSchema = pgSchema("monitoring");

const ts = (name: string) => timestamp(name, { withTimezone: true });

export const customTriggers = monitoringSchema.table("custom_triggers", {
  id: text("id").primaryKey(),
  customerKey: text("customer_key").notNull(),
  nodeId: text("node_id"),
  deltaLvA: numeric("delta_lv_a", { mode: "number", precision: 7, scale: 2 }).notNull(),
  deltaMvA: numeric("delta_mv_a", { mode: "number", precision: 7, scale: 2 }).notNull(),
  durationMin: integer("duration_min").notNull(),
  enabled: boolean("enabled").notNull(),
  createdBy: text("created_by").notNull(),
  createdAt: ts("created_at").notNull().defaultNow(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
  lastFiredAt: ts("last_fired_at"),
  lastFireStatus: text("last_fire_status", { enum: ["STARTED", "FAILURE"] }),
  lastFireCode: integer("last_fire_code"),
  lastRequestId: text("last_request_id"),
});
export type TriggerRow = typeof customTriggers.$inferSelect;

export const customRequests = monitoringSchema.table("custom_requests", {
  id: text("id").primaryKey(),
  customerKey: text("customer_key").notNull(),
  nodeId: text("node_id").notNull(),
  feederId: text("feeder_id"),
  cellId: text("cell_id").notNull(),
  kind: text("kind", { enum: ["MANUAL", "AUTOMATIC"] }).notNull(),
  triggerId: text("trigger_id"),
  durationMin: integer("duration_min"),
  startedAt: ts("started_at").notNull(),
  endsAt: ts("ends_at"),
  stoppedAt: ts("stopped_at"),
  createdBy: text("created_by").notNull(),
  createdAt: ts("created_at").notNull().defaultNow(),
  status: text("status", { enum: ["RUNNING", "STOPPED", "FINISHED"] }).notNull(),
});
export type RequestRow = typeof customRequests.$inferSelect;
