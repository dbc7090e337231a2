/** Reads the notification preferences stored in user_metadata.notification.apps. */

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
