/**
 * The notifications contract (nsm): notification types and severities of spec 3, the answers
 * of the notification calls and of the websocket, shared with the web app (types with
 * `import type`). Pure: imports only zod.
 */
import { z } from "zod";

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

/** The app key whose role and notification setting a notification type needs. */
export const APP_OF_TYPE: Readonly<Record<NotificationType, string>> = {
  GRID_MONITORING: "app:grid-monitoring",
  DATA_EXPORT: "hes:data-export",
  POWER_QUALITY: "app:power-quality",
  SETUP_INFORMATION: "hes:infrastructure-setup",
  IO_MONITORING: "app:io-monitoring",
  CONNECTOR_SCADA: "hes:scada-connector",
};

/** The info fields of spec 3 (all optional), sent as JSON text in `info`. */
export interface NotificationInfo {
  number_of_alarms?: number;
  state?: string;
  counter?: number;
  ew_name?: string;
  node_name?: string;
  start_time?: string;
  status?: string;
  /** Beyond spec 3: the node the notification is about, so that the bell opens it. */
  node_id?: string;
  /** Beyond spec 3: the electrical work's key (IO monitoring opens the work). */
  ew_key?: string;
  /** Beyond spec 3: the power-quality report a notification is about (the bell opens it). */
  report_key?: string;
  report_name?: string;
}

/** A notification as the API and the websocket send it. */
export const notificationDto = z.object({
  key: z.string(),
  name: z.string(),
  type: z.enum(NOTIFICATION_TYPES),
  severity: z.enum(SEVERITIES),
  is_read: z.boolean(),
  creation_time: z.string(),
  /** JSON text with the info fields of spec 3 (NotificationInfo). */
  info: z.string(),
  /** The {product}_id of spec 3: the cell the notification is about, or null. */
  gridwatch_id: z.string().nullable(),
}).meta({ id: "NotificationDto" });
export type NotificationDto = z.output<typeof notificationDto>;

/** One page of a user's notifications, newest first, with the counts of all of them. */
export const notificationPageDto = z.object({
  notifications: z.array(notificationDto),
  page: z.number(),
  size: z.number(),
  total: z.number(),
  unread: z.number(),
}).meta({ id: "NotificationPageDto" });
export type NotificationPageDto = z.output<typeof notificationPageDto>;

/** An e-mail kept in the outbox (no SMTP configured). */
export const outboxDto = z.object({
  id: z.string(),
  user_id: z.string().nullable(),
  recipient: z.string(),
  subject: z.string(),
  body: z.string(),
  kind: z.enum(["NOTIFICATION", "EMAIL_VALIDATION"]),
  created_at: z.string(),
}).meta({ id: "OutboxDto" });
export type OutboxDto = z.output<typeof outboxDto>;

/** Largest page of the notification list. */
export const MAX_PAGE_SIZE = 100;

/** `GET /nsm/notifications/users/{id}`: a page (0-based) of the list. */
export const pageQuery = z.object({
  page: z.coerce.number().int().min(0).max(1_000_000).default(0),
  size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(20),
});

/** Marks one notification, or all of the user's, read (spec 7: `is_read` set to true). */
export const readInput = z.strictObject({ is_read: z.boolean() });
