/**
 * When scheduled exports run and which period each run exports (docs/export.md): the previous
 * day, week (Monday 00:00 on) or month of the customer's time zone, started a delay after the
 * period ended so that its last 10-minute, hourly and daily aggregates are closed. Pure.
 */
import { wallClock, zoneOffset } from "../../kernel/mod.ts";
import type { ScheduleFrequency } from "./contract.ts";

export { LONGEST_PERIOD_DAYS } from "./contract.ts";

/** A run starts this long after the end of its period (the core closes slots after a grace). */
export const RUN_DELAY_MS = 30 * 60_000;

interface LocalDate {
  y: number;
  /** 0-11 */
  m: number;
  d: number;
}

/** The instant of local midnight starting the date (the first instant of that date). */
export function localMidnight(date: LocalDate, timeZone: string): number {
  const guess = Date.UTC(date.y, date.m, date.d);
  let t = guess - zoneOffset(guess, timeZone);
  // Across a change of offset the first guess is an hour off: correct once more.
  t = guess - zoneOffset(t, timeZone);
  return t;
}

/** The local date `days` after `date` (calendar arithmetic, months and years roll over). */
function addDays(date: LocalDate, days: number): LocalDate {
  const d = new Date(Date.UTC(date.y, date.m, date.d + days));
  return { y: d.getUTCFullYear(), m: d.getUTCMonth(), d: d.getUTCDate() };
}

/** The first local date of the period of `frequency` holding `date`. */
function periodStart(frequency: ScheduleFrequency, date: LocalDate): LocalDate {
  if (frequency === "DAILY") return date;
  if (frequency === "MONTHLY") return { y: date.y, m: date.m, d: 1 };
  // ISO weeks start on Monday.
  const weekday = (new Date(Date.UTC(date.y, date.m, date.d)).getUTCDay() + 6) % 7;
  return addDays(date, -weekday);
}

function nextStart(frequency: ScheduleFrequency, start: LocalDate): LocalDate {
  if (frequency === "DAILY") return addDays(start, 1);
  if (frequency === "WEEKLY") return addDays(start, 7);
  return start.m === 11 ? { y: start.y + 1, m: 0, d: 1 } : { y: start.y, m: start.m + 1, d: 1 };
}

function previousStart(frequency: ScheduleFrequency, start: LocalDate): LocalDate {
  if (frequency === "DAILY") return addDays(start, -1);
  if (frequency === "WEEKLY") return addDays(start, -7);
  return start.m === 0 ? { y: start.y - 1, m: 11, d: 1 } : { y: start.y, m: start.m - 1, d: 1 };
}

/** The local date of an instant; a time of day before the period's midnight is the day before. */
function dateOf(ms: number, timeZone: string): LocalDate {
  const w = wallClock(ms, timeZone);
  return { y: w.year, m: w.month - 1, d: w.day };
}

/** The last whole period that ended at or before `at`: [from, to) in UTC ms. */
export function periodBefore(
  frequency: ScheduleFrequency,
  at: number,
  timeZone: string,
): { from: number; to: number } {
  const current = periodStart(frequency, dateOf(at, timeZone));
  let end = current;
  if (localMidnight(current, timeZone) > at) end = previousStart(frequency, current);
  return {
    from: localMidnight(previousStart(frequency, end), timeZone),
    to: localMidnight(end, timeZone),
  };
}

/** When the first run after `after` starts: the next end of a period, plus the delay. */
export function nextRunAfter(
  frequency: ScheduleFrequency,
  after: number,
  timeZone: string,
): number {
  const { to } = periodBefore(frequency, after, timeZone);
  const next = nextStart(frequency, dateOf(to + 3_600_000, timeZone));
  // `to` is a period start: the next period starts one step later.
  const start = periodStart(frequency, next);
  return localMidnight(start, timeZone) + RUN_DELAY_MS;
}

/** The period a run due at `runAt` exports (the one that ended RUN_DELAY_MS before). */
export function periodOfRun(
  frequency: ScheduleFrequency,
  runAt: number,
  timeZone: string,
): { from: number; to: number } {
  return periodBefore(frequency, runAt - RUN_DELAY_MS, timeZone);
}
