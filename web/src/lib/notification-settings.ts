/** Reads the notification preferences stored in user_metadata.notification.apps. */
import {
  APP_OF_TYPE,
  NOTIFICATION_TYPES,
  type NotificationType,
} from "../../../modules/notifications/contract.ts";
import type {
  NotificationSettings as NotificationSettingsValue,
} from "../../../modules/users/contract.ts";

/**
 * True when at least one notification is enabled. The `apps` object maps an app key to a flag
 * or to channel flags (`{ web: true, email: false }`); any `true` leaf counts.
 */
export function hasNotificationsEnabled(apps: unknown): boolean {
  if (apps === true) return true;
  if (typeof apps !== "object" || apps === null) return false;
  return Object.values(apps as Record<string, unknown>).some((v) => hasNotificationsEnabled(v));
}

/** The `apps` object of a user's metadata, or `undefined`. */
export function notificationApps(userMetadata: unknown): unknown {
  if (typeof userMetadata !== "object" || userMetadata === null) return undefined;
  const notification = (userMetadata as { notification?: unknown }).notification;
  if (typeof notification !== "object" || notification === null) return undefined;
  return (notification as { apps?: unknown }).apps;
}

/** The channels of one app: in the bell (web) and by e-mail. */
export interface AppChannels {
  web: boolean;
  email: boolean;
}

/** user_metadata.notification as PATCH /usm/users/current/{id} takes it. */
export type { NotificationSettingsValue };

/** The module of each notification type (its screen and title). */
const MODULE_OF_TYPE = {
  GRID_MONITORING: "grid-monitoring",
  DATA_EXPORT: "data-export",
  POWER_QUALITY: "power-quality",
  SETUP_INFORMATION: "infrastructure-setup",
  IO_MONITORING: "io-monitoring",
  CONNECTOR_SCADA: "scada-connector",
} as const satisfies Record<NotificationType, string>;

/** A notification type with the app key whose role and setting it needs (the server's table). */
export interface NotificationApp {
  key: string;
  type: NotificationType;
  module: (typeof MODULE_OF_TYPE)[NotificationType];
}

/** Notification types of spec 3 with the app key whose role and setting they need. */
export const NOTIFICATION_APPS: readonly NotificationApp[] = NOTIFICATION_TYPES.map((type) => ({
  key: APP_OF_TYPE[type],
  type,
  module: MODULE_OF_TYPE[type],
}));

/**
 * The apps a user can get notifications for: a role for the key (as the server checks it),
 * and for IO monitoring the customer's applications must list it.
 */
export function notificationAppsFor(
  appsRoles: readonly string[],
  customerApplications: readonly string[],
): NotificationApp[] {
  return NOTIFICATION_APPS.filter((app) =>
    appsRoles.some((e) => e === app.key || e.startsWith(`${app.key}:`)) &&
    (app.key !== "app:io-monitoring" || customerApplications.includes(app.key))
  );
}

/** Reads user_metadata.notification defensively. */
export function readNotificationSettings(userMetadata: unknown): NotificationSettingsValue {
  const apps = notificationApps(userMetadata);
  const notification = (userMetadata as { notification?: { email?: unknown } } | null)
    ?.notification;
  const clean: Record<string, boolean | AppChannels> = {};
  if (typeof apps === "object" && apps !== null) {
    for (const [key, value] of Object.entries(apps as Record<string, unknown>)) {
      if (typeof value === "boolean") clean[key] = value;
      else if (typeof value === "object" && value !== null) {
        const v = value as { web?: unknown; email?: unknown };
        clean[key] = { web: v.web === true, email: v.email === true };
      }
    }
  }
  return { apps: clean, email: notification?.email === true };
}

/** The channels of one app (`true` alone means the bell only, as the server reads it). */
export function channelsOf(settings: NotificationSettingsValue, appKey: string): AppChannels {
  const value = settings.apps[appKey];
  if (value === true) return { web: true, email: false };
  if (typeof value === "object") return { ...value };
  return { web: false, email: false };
}

/** Settings with one channel of one app switched. */
export function withChannel(
  settings: NotificationSettingsValue,
  appKey: string,
  channel: keyof AppChannels,
  on: boolean,
): NotificationSettingsValue {
  const channels = { ...channelsOf(settings, appKey), [channel]: on };
  return { ...settings, apps: { ...settings.apps, [appKey]: channels } };
}
