/** Notification state of the bell; filled by the live notification centre in a later issue. */
import { atom } from "jotai";

/** A notification as the bell lists it (spec 3, Notification). */
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
  info: string;
}

export const notificationsAtom = atom<NotificationItem[]>([]);
export const unreadCountAtom = atom((get) =>
  get(notificationsAtom).filter((n) => !n.is_read).length
);
