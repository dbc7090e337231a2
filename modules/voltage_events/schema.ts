/** Drizzle schema of power-quality events (PostgreSQL schema `voltage_events`, migration 0017). */
import { index, integer, pgSchema, text, timestamp, unique } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";

export const voltageEventsSchema = pgSchema("voltage_events");

/** One recording request per event, and the uploaded file once downloaded. */
export const recordings = voltageEventsSchema.table("recordings", {
  id: text("id").primaryKey(),
  customerKey: text("customer_key").notNull(),
  cellId: text("cell_id").notNull(),
  eventId: text("event_id").notNull(),
  status: text("status", { enum: ["REQUESTED", "DOWNLOADING", "DOWNLOADED", "FAILED"] })
    .notNull(),
  code: integer("code"),
  requestedBy: text("requested_by").notNull(),
  requestedAt: timestamp("requested_at", { withTimezone: true }).notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  deadlineAt: timestamp("deadline_at", { withTimezone: true }).notNull(),
  payload: text("payload"),
  sha256: text("sha256"),
  sizeBytes: integer("size_bytes"),
}, (t) => [
  unique().on(t.cellId, t.eventId),
  index("recordings_customer_time_idx").on(t.customerKey, t.updatedAt.desc()),
  index("recordings_open_idx").on(t.cellId).where(
    sql`${t.status} IN ('REQUESTED', 'DOWNLOADING')`,
  ),
]);
