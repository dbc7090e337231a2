/**
 * The rules of auto-analyses (spec 2.1 #auto-analyses, codes 503 and 520), pure: when the next
 * run is due (a weekday and an hour on the wall clock of the customer's time zone, daylight saving
 * included), which ISO week a run analyses, which status changes are allowed, and the names of
 * the reports a run creates.
 */
import { wallClock, zoneOffset } from "../../../kernel/mod.ts";
import {
  AUTO_ACTION_STATUSES,
  type AutoAction,
  type AutoAnalysisStatus,
  REPORT_NAME,
} from "./contract.ts";

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
export const WEEK_MS = 7 * DAY_MS;

/** Monday 00:00 UTC of the ISO week holding `t` (the weeks reports are evaluated on). */
export function isoMonday(t: number): number {
  const midnight = Math.floor(t / DAY_MS) * DAY_MS;
  return midnight - ((new Date(midnight).getUTCDay() + 6) % 7) * DAY_MS;
}

/** The last complete ISO week at `t`: `[monday - 7 d, monday)` of the week holding `t`. */
export function lastCompleteWeek(t: number): { from: number; to: number } {
  const to = isoMonday(t);
  return { from: to - WEEK_MS, to };
}

/** `2026-W05`: the ISO week label of a Monday (UTC). */
export function isoWeekLabel(monday: number): string {
  const thursday = new Date(monday + 3 * DAY_MS);
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / WEEK_MS) + 1;
  return `${year}-W${String(week).padStart(2, "0")}`;
}

/**
 * The instant the wall clock of `timeZone` shows `date` (UTC fields: year, month, day) at
 * `hour`:00. A time skipped by the spring change (02:30 in Europe) is the first instant after
 * the gap (03:00); a time shown twice in autumn is its first showing.
 */
export function zonedHour(dateUtc: number, hour: number, timeZone: string): number {
  const wall = Math.floor(dateUtc / DAY_MS) * DAY_MS + hour * HOUR_MS;
  // Try the offsets around the wanted time; the earliest instant that shows it wins.
  const candidates = [wall - 14 * HOUR_MS, wall, wall + 14 * HOUR_MS]
    .map((probe) => wall - zoneOffset(probe, timeZone));
  const exact = candidates.filter((t) => {
    const w = wallClock(t, timeZone);
    return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute) === wall;
  }).sort((a, b) => a - b);
  if (exact.length) return exact[0]!;
  // In the gap the clock jumps from the smaller offset to the larger one: the jump's instant.
  return wall - Math.min(zoneOffset(wall - DAY_MS, timeZone), zoneOffset(wall + DAY_MS, timeZone));
}

/** When a run is due: a weekday (ISO, Monday 1) at an hour of the customer's wall clock. */
export interface Schedule {
  weekday: number;
  hour: number;
  timezone: string;
}

/**
 * The first run at or after `after` (epoch ms): the next day whose weekday is the schedule's, at
 * its hour on the wall clock of its time zone.
 */
export function nextRun(schedule: Schedule, after: number): number {
  const today = wallClock(after, schedule.timezone);
  const todayUtc = Date.UTC(today.year, today.month - 1, today.day);
  for (let k = 0; k <= 8; k++) {
    const day = todayUtc + k * DAY_MS;
    const weekday = ((new Date(day).getUTCDay() + 6) % 7) + 1;
    if (weekday !== schedule.weekday) continue;
    const at = zonedHour(day, schedule.hour, schedule.timezone);
    if (at >= after) return at;
  }
  throw new Error(`No run found after ${new Date(after).toISOString()}`);
}

/** The first run of a schedule starting on `startDate` (`YYYY-MM-DD`, the customer's day). */
export function firstRun(schedule: Schedule, startDate: string): number {
  const [y, m, d] = startDate.split("-").map(Number) as [number, number, number];
  return nextRun(schedule, zonedHour(Date.UTC(y, m - 1, d), 0, schedule.timezone));
}

/**
 * Code 520: the first week the analysis would evaluate starts beyond the data lifetime (the
 * 10-minute aggregates older than `lifetimeDays` are gone).
 */
export function beyondDataLifetime(firstRunAt: number, now: number, lifetimeDays: number): boolean {
  return lastCompleteWeek(firstRunAt).from < now - lifetimeDays * DAY_MS;
}

/** Code 513: the first run more than `maxFutureDays` ahead. */
export function tooFarAhead(firstRunAt: number, now: number, maxFutureDays: number): boolean {
  return firstRunAt > now + maxFutureDays * DAY_MS;
}

/** Code 503 unless `action` is allowed in `status` (see AUTO_ACTION_STATUSES). */
export function allowed(action: AutoAction, status: AutoAnalysisStatus): boolean {
  return AUTO_ACTION_STATUSES[action].includes(status);
}

/**
 * The name of the report a run makes for a node: `<analysis> <week> <node>`, cut to the report
 * name's 60 characters; `taken` (lower-case names in use) gets a ` (2)`, ` (3)` ... suffix.
 */
export function reportNameFor(
  analysis: string,
  week: string,
  node: string,
  taken: ReadonlySet<string>,
): string {
  const base = `${analysis} ${week} ${node}`.replace(/\s+/g, " ").trim();
  for (let k = 1; k < 1000; k++) {
    const suffix = k === 1 ? "" : ` (${k})`;
    const name = `${base.slice(0, REPORT_NAME.max - suffix.length).trim()}${suffix}`;
    if (!taken.has(name.toLowerCase())) return name;
  }
  return `${base.slice(0, REPORT_NAME.max - 37).trim()} ${crypto.randomUUID()}`;
}
