/** Notification state of the bell: the loaded list (merged by key) and the server's counts. */
import { atom } from "jotai";
import type { NotificationDto as NotificationItem } from "../../../../modules/notifications/contract.ts";

export type {
  NotificationDto as NotificationItem,
  NotificationPageDto as NotificationPage,
} from "../../../../modules/notifications/contract.ts";

/** The loaded notifications, newest first. */
export const notificationsAtom = atom<NotificationItem[]>([]);
/** The server's counts of the user's notifications (kept current by live messages). */
export const notificationCountsAtom = atom({ total: 0, unread: 0 });
export const unreadCountAtom = atom((get) => get(notificationCountsAtom).unread);
