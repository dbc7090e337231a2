/** Notification state of the bell: the loaded list (merged by key) and the server's counts. */
import { atom } from "jotai";

/** A notification as the nsm calls and the websocket send it (spec 3, Notification). */
export interface NotificationItem {
  key: string;
  name: string;
  severity: "CRITICAL" | "WARNING" | "INFO";
  is_read: boolean;
  creation_time: string;
  type:
    | "GRID_MONITORING"
    | "DATA_EXPORT"
    | "POWER_QUALITY"
    | "SETUP_INFORMATION"
    | "IO_MONITORING"
    | "CONNECTOR_SCADA";
  /** JSON text with number_of_alarms, state, counter, ew_name, node_name, start_time, status. */
  info: string;
  gridwatch_id?: string | null;
}

/** One page of GET /nsm/notifications/users/{userId}. */
export interface NotificationPage {
  notifications: NotificationItem[];
  page: number;
  size: number;
  total: number;
  unread: number;
}

/** The loaded notifications, newest first. */
export const notificationsAtom = atom<NotificationItem[]>([]);
/** The server's counts of the user's notifications (kept current by live messages). */
export const notificationCountsAtom = atom({ total: 0, unread: 0 });
export const unreadCountAtom = atom((get) => get(notificationCountsAtom).unread);
