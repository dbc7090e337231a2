/** Drizzle schema of IO monitoring (PostgreSQL schema `io_monitoring`, migration 0013). */
import { pgSchema, primaryKey, smallint, text, timestamp } from "drizzle-orm/pg-core";

export const ioMonitoringSchema = pgSchema("io_monitoring");

/** The last digital state the watcher saw per channel (the state it last notified). */
export const channelStates = ioMonitoringSchema.table("channel_states", {
  cellId: text("cell_id").notNull(),
  module: smallint("module").notNull(),
  channel: smallint("channel").notNull(),
  value: smallint("value").notNull(),
  changedAt: timestamp("changed_at", { withTimezone: true }).notNull(),
}, (t) => [primaryKey({ columns: [t.cellId, t.module, t.channel] })]);
