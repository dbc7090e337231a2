/** Badge text with overflow, e.g. the notification bell (spec 2.7: overflow at 9). */

/** The maximum count the notification badge shows before `9+`. */
export const NOTIFICATION_BADGE_MAX = 9;

/** `null` for no badge, the count up to `max`, else `${max}+`. */
export function badgeText(count: number, max: number = NOTIFICATION_BADGE_MAX): string | null {
  if (!Number.isFinite(count) || count <= 0) return null;
  const whole = Math.floor(count);
  return whole > max ? `${max}+` : String(whole);
}
