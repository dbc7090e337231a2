/**
 * @module
 * Notifications (nsm): the notification centre of spec 2.7 — notifications per user, the
 * STOMP websocket that pushes them live, the producers that turn other modules' events into
 * notifications and e-mails, and the mail outbox.
 */
export {
  type NotificationCentre,
  type NotificationCentreDeps,
  notificationsModule,
} from "./centre.ts";
export type { NotificationDto, NotificationPageDto, OutboxDto } from "./contract.ts";
export { notificationDestination } from "./stomp.ts";
