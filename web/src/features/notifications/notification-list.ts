/** Pure helpers of the notification centre: merging by key, paging, texts by type and state. */
import type { NotificationInfo } from "../../../../modules/notifications/contract.ts";
import type { NotificationItem } from "./notification-atoms.ts";

/** Height of one row of the list in px (spec 2.7: pages of (height / 50) + 1 rows). */
export const ROW_HEIGHT = 50;

/** The list height for a window height (spec 2.7: the window height minus 180). */
export function listHeight(windowHeight: number): number {
  return Math.max(ROW_HEIGHT, windowHeight - 180);
}

/** Rows loaded per page for a list height. */
export function pageSize(height: number): number {
  return Math.floor(height / ROW_HEIGHT) + 1;
}

const newestFirst = (a: NotificationItem, b: NotificationItem) =>
  b.creation_time.localeCompare(a.creation_time) || b.key.localeCompare(a.key);

/**
 * Merges incoming notifications into a list by key (spec 4): a known key is replaced, a new
 * one added; the result is newest first. `added` and `newlyUnread` tell how the counts change.
 */
export function mergeByKey(
  list: readonly NotificationItem[],
  incoming: readonly NotificationItem[],
): { list: NotificationItem[]; added: number; newlyUnread: number } {
  const byKey = new Map(list.map((n) => [n.key, n]));
  let added = 0;
  let newlyUnread = 0;
  for (const n of incoming) {
    const before = byKey.get(n.key);
    if (!before) {
      added++;
      if (!n.is_read) newlyUnread++;
    } else if (before.is_read !== n.is_read) newlyUnread += n.is_read ? -1 : 1;
    byKey.set(n.key, n);
  }
  return { list: [...byKey.values()].sort(newestFirst), added, newlyUnread };
}

/** The info fields of spec 3, parsed defensively from the JSON text. */
export function parseInfo(info: unknown): NotificationInfo {
  if (typeof info === "object" && info !== null) return info as NotificationInfo;
  if (typeof info !== "string") return {};
  try {
    const parsed = JSON.parse(info);
    return typeof parsed === "object" && parsed !== null ? parsed : {};
  } catch {
    return {};
  }
}

/** The i18n key (namespace `notifications`) and values of a notification's text (spec 2.7). */
export function notificationText(
  n: Pick<NotificationItem, "name" | "type" | "info">,
): { key: string; values: Record<string, string | number> } {
  const info = parseInfo(n.info);
  const node = info.node_name ?? info.ew_name ?? "";
  switch (n.name) {
    case "NODE_STATE_CHANGED":
      return (info.number_of_alarms ?? 0) > 0
        ? {
          key: info.number_of_alarms === 1 ? "text.nodeAlarm" : "text.nodeAlarms",
          values: { count: info.number_of_alarms!, node, state: info.state ?? "" },
        }
        : { key: "text.nodesCleared", values: { count: info.counter ?? 0 } };
    case "AUTOMATIC_REQUEST_TRIGGER":
      return {
        key: info.status === "FAILURE" ? "text.triggerFailed" : "text.triggerStarted",
        values: { node },
      };
    case "CELLS_TO_CONFIGURE":
      return { key: "text.cellsToConfigure", values: { count: info.number_of_alarms ?? 0 } };
    case "MAPPING_VALIDATED":
      return info.status === "CORRECT"
        ? { key: "text.mappingCorrect", values: { node } }
        : { key: "text.mappingInvalid", values: { node, status: info.status ?? "" } };
    case "LOGIN_LOCKED":
      // identity.loginLocked: the account's e-mail in status, the lockout's minutes in counter.
      return {
        key: "text.loginLocked",
        values: { email: info.status ?? "", minutes: info.counter ?? 15 },
      };
    case "IO_STATE_CHANGED":
      return {
        key: info.state === "ON" ? "text.ioStateOn" : "text.ioStateOff",
        values: { module: info.status ?? "", channel: info.counter ?? 1, node },
      };
    case "SCADA_CONNECTION":
      return {
        key: info.state === "CONNECTED"
          ? "text.scadaConnected"
          : info.state === "DISCONNECTED"
          ? "text.scadaDisconnected"
          : "text.scadaListenFailed",
        values: { profile: info.node_name ?? "", address: info.status ?? "" },
      };
    default:
      return {
        key: info.state === "DONE" ? "text.stateDone" : "text.stateFailed",
        values: { type: n.type },
      };
  }
}

/** A relative time such as "5 minutes ago" in the user's language. */
export function relativeTime(iso: string, language: string, now: number = Date.now()): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  const format = new Intl.RelativeTimeFormat(language, { numeric: "auto" });
  const abs = Math.abs(seconds);
  if (abs < 60) return format.format(seconds, "second");
  if (abs < 3600) return format.format(Math.round(seconds / 60), "minute");
  if (abs < 86_400) return format.format(Math.round(seconds / 3600), "hour");
  if (abs < 30 * 86_400) return format.format(Math.round(seconds / 86_400), "day");
  if (abs < 365 * 86_400) return format.format(Math.round(seconds / (30 * 86_400)), "month");
  return format.format(Math.round(seconds / (365 * 86_400)), "year");
}

/** Where a click on a notification leads: the node, or the electrical work. */
export type NotificationTarget =
  | { to: "/grid-monitoring"; search: { voltage: "lv"; node: string } }
  | { to: "/io-monitoring"; search: { ew: string } };

/**
 * The screen a notification opens: grid monitoring's node (alarms, automatic requests), the
 * electrical work in IO monitoring (I/O state changes); `null` when it names no node (cells
 * waiting, exports, reports, notifications stored before nodes were named): a click only
 * marks those read.
 */
export function notificationTarget(
  n: Pick<NotificationItem, "name" | "type" | "info">,
): NotificationTarget | null {
  const info = parseInfo(n.info);
  if (n.type === "GRID_MONITORING" && typeof info.node_id === "string") {
    return { to: "/grid-monitoring", search: { voltage: "lv", node: info.node_id } };
  }
  if (n.type === "IO_MONITORING" && typeof info.ew_key === "string") {
    return { to: "/io-monitoring", search: { ew: info.ew_key } };
  }
  return null;
}
