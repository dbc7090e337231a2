/** Drizzle schema of the notification centre (PostgreSQL schema `notifications`, migration 0011). */
import { boolean, jsonb, pgSchema, text, timestamp } from "drizzle-orm/pg-core";

export const notificationsSchema = pgSchema("notifications");

const ts = (name: string) => timestamp(name, { withTimezone: true });

/** The notification types of spec 3. */
export const NOTIFICATION_TYPES = [
  "GRID_MONITORING",
  "DATA_EXPORT",
  "POWER_QUALITY",
  "SETUP_INFORMATION",
  "IO_MONITORING",
  "CONNECTOR_SCADA",
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export const SEVERITIES = ["CRITICAL", "WARNING", "INFO"] as const;
export type Severity = (typeof SEVERITIES)[number];

/** The info fields of spec 3 (all optional). */
export interface NotificationInfo {
  number_of_alarms?: number;
  state?: string;
  counter?: number;
  ew_name?: string;
  node_name?: string;
  start_time?: string;
  status?: string;
}

export const notifications = notificationsSchema.table("notifications", {
  key: text("key").primaryKey(),
  userId: text("user_id").notNull(),
  customerKey: text("customer_key").notNull(),
  type: text("type", { enum: NOTIFICATION_TYPES }).notNull(),
  name: text("name").notNull(),
  severity: text("severity", { enum: SEVERITIES }).notNull(),
  isRead: boolean("is_read").notNull().default(false),
  creationTime: ts("creation_time").notNull().defaultNow(),
  info: jsonb("info").$type<NotificationInfo>().notNull(),
  productId: text("product_id"),
});
export type NotificationRow = typeof notifications.$inferSelect;

export const outbox = notificationsSchema.table("outbox", {
  id: text("id").primaryKey(),
  customerKey: text("customer_key").notNull(),
  userId: text("user_id"),
  recipient: text("recipient").notNull(),
  subject: text("subject").notNull(),
  body: text("body").notNull(),
  kind: text("kind", { enum: ["NOTIFICATION", "EMAIL_VALIDATION"] }).notNull(),
  createdAt: ts("created_at").notNull().defaultNow(),
});
export type OutboxRow = typeof outbox.$inferSelect;
