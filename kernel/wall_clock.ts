/**
 * Wall clocks of IANA time zones, for work scheduled in a customer's local time (auto-analyses,
 * scheduled exports). Read from `Intl.DateTimeFormat` parts: exact across daylight-saving changes
 * without a time-zone database of our own.
 */

/** What a clock on the wall of a time zone shows at an instant. */
export interface WallClock {
  year: number;
  /** 1-12. */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** ISO weekday: 1 = Monday … 7 = Sunday. */
  weekday: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();
const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

function formatFor(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat("en-US", {
        timeZone,
        hourCycle: "h23",
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
        second: "numeric",
        weekday: "short",
      });
    } catch {
      return formatFor("UTC");
    }
    formats.set(timeZone, format);
  }
  return format;
}

/** The wall clock of `t` (ms) in `timeZone`; an unknown zone reads as UTC. */
export function wallClock(t: number, timeZone: string): WallClock {
  const parts = formatFor(timeZone).formatToParts(new Date(t));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return {
    year: Number(get("year")),
    month: Number(get("month")),
    day: Number(get("day")),
    hour: Number(get("hour")) % 24,
    minute: Number(get("minute")),
    second: Number(get("second")),
    weekday: WEEKDAYS.indexOf(get("weekday")) + 1,
  };
}

/** The offset of `timeZone` from UTC at `t`, ms (east positive). */
export function zoneOffset(t: number, timeZone: string): number {
  const w = wallClock(t, timeZone);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) -
    Math.floor(t / 1000) * 1000;
}
