/** Time zone helpers for the footer (spec 2.6). */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/**
 * Offset of `timeZone` from UTC at `at`, in minutes (east positive), or `null` for an unknown
 * zone. Computed from formatted parts because `longOffset` is missing in older browsers.
 */
export function timeZoneOffsetMinutes(timeZone: string, at: Date = new Date()): number | null {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = formatterFor(timeZone).formatToParts(at);
  } catch {
    return null;
  }
  const get = (type: Intl.DateTimeFormatPartTypes) =>
    Number(parts.find((p) => p.type === type)?.value ?? Number.NaN);
  const wallClock = Date.UTC(
    get("year"),
    get("month") - 1,
    get("day"),
    get("hour") % 24,
    get("minute"),
    get("second"),
  );
  const instant = Math.floor(at.getTime() / 1000) * 1000;
  const minutes = Math.round((wallClock - instant) / 60000);
  return Number.isFinite(minutes) ? minutes : null;
}

/** Formats an offset in minutes as `GMT+01:00`, `GMT-03:30` or `GMT+00:00`. */
export function formatGmtOffset(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  const hours = String(Math.floor(abs / 60)).padStart(2, "0");
  const minutes = String(abs % 60).padStart(2, "0");
  return `GMT${sign}${hours}:${minutes}`;
}

/** The customer's GMT offset label for `timeZone` at `at`, or `null` for an unknown zone. */
export function gmtOffsetLabel(timeZone: string, at: Date = new Date()): string | null {
  const offset = timeZoneOffsetMinutes(timeZone, at);
  return offset === null ? null : formatGmtOffset(offset);
}
