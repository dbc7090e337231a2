/** Drizzle schema of the notification centre (PostgreSQL schema `notifications`, migration 0011). */
import { boolean, jsonb, pgSchema, text, timestamp } from "drizzle-orm/pg-core";

export const notificationsSchema = pgSchema("notifications");

const ts = (name: string) => timestamp(name, { withTimezone: true });

import {
  NOTIFICATION_TYPES,
  type NotificationInfo,
  type NotificationType,
  SEVERITIES,
  type Severity,
} from "./contract.ts";

export {
  NOTIFICATION_TYPES,
  type NotificationInfo,
  type NotificationType,
  SEVERITIES,
  type Severity,
};

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
