/**
 * Periods of EN 50160 evaluation: ISO weeks (the standard's unit of evaluation) and the free
 * periods of custom reports, all in UTC and on the 10-minute slot grid of the aggregates.
 */
import { PeriodError } from "./errors.ts";

/** Length of one aggregation slot: 10 minutes, in ms. */
export const SLOT_MS = 600_000;

/** Longest custom report period, in days (spec 8.2, code 402). */
export const MAX_REPORT_DAYS = 366;

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;

/** A half-open period `[from, to)` on the 10-minute grid. */
export interface ReportPeriod {
  readonly from: Date;
  readonly to: Date;
  /** Number of 10-minute slots in the period. */
  readonly slotCount: number;
}

/** An ISO 8601 week: the year that owns its Thursday and the week number 1..53. */
export interface IsoWeek {
  readonly year: number;
  readonly week: number;
}

/**
 * The UTC period of an ISO week: Monday 00:00 UTC to the next Monday 00:00 UTC (exclusive),
 * 1,008 slots. Throws `PeriodError` (401) for a week the year does not have.
 */
export function isoWeekRange(year: number, week: number): ReportPeriod {
  if (!Number.isInteger(year) || year < 1 || year > 9999) {
    throw new PeriodError(401, `Invalid ISO week year ${year}: must be an integer 1..9999`);
  }
  const weeks = isoWeeksInYear(year);
  if (!Number.isInteger(week) || week < 1 || week > weeks) {
    throw new PeriodError(401, `Invalid ISO week ${year}-W${week}: ${year} has ${weeks} weeks`);
  }
  const from = week1Monday(year) + (week - 1) * WEEK_MS;
  return { from: new Date(from), to: new Date(from + WEEK_MS), slotCount: WEEK_MS / SLOT_MS };
}

/** The ISO week (in UTC) that contains `date`; early January may belong to the previous year. */
export function isoWeekOf(date: Date): IsoWeek {
  const time = date.getTime();
  if (Number.isNaN(time)) throw new PeriodError(401, "Cannot find the ISO week: invalid date");
  const midnight = Math.floor(time / DAY_MS) * DAY_MS;
  // The week belongs to the year of its Thursday.
  const thursday = midnight + (3 - isoWeekday(midnight)) * DAY_MS;
  const year = new Date(thursday).getUTCFullYear();
  return { year, week: 1 + Math.floor((thursday - week1Monday(year)) / WEEK_MS) };
}

/** Number of ISO weeks of a year: 53 when December 28 falls in week 53, else 52. */
export function isoWeeksInYear(year: number): number {
  const dec28 = new Date(0);
  dec28.setUTCFullYear(year, 11, 28);
  return isoWeekOf(dec28).week;
}

/**
 * Checks a custom report period and counts its slots. Throws `PeriodError`:
 * 401 for an invalid date, `to <= from` or a bound off the 10-minute UTC grid;
 * 403 for a period under 10 minutes; 402 for a period over 366 days.
 * Exactly 10 minutes and exactly 366 days are accepted.
 */
export function validateReportPeriod(from: Date, to: Date): ReportPeriod {
  const start = from instanceof Date ? from.getTime() : NaN;
  const end = to instanceof Date ? to.getTime() : NaN;
  if (Number.isNaN(start) || Number.isNaN(end)) {
    throw new PeriodError(401, "Invalid report period: from and to must be valid dates");
  }
  if (end <= start) {
    throw new PeriodError(
      401,
      `Invalid report period: to (${to.toISOString()}) must be after from (${from.toISOString()})`,
    );
  }
  const length = end - start;
  if (length < SLOT_MS) {
    throw new PeriodError(403, `Report period too short: ${length / 1000} s, at least 10 minutes`);
  }
  if (length > MAX_REPORT_DAYS * DAY_MS) {
    throw new PeriodError(
      402,
      `Report period too long: ${length / DAY_MS} days, at most ${MAX_REPORT_DAYS}`,
    );
  }
  if (start % SLOT_MS !== 0 || end % SLOT_MS !== 0) {
    throw new PeriodError(
      401,
      `Invalid report period: ${from.toISOString()} to ${to.toISOString()} is not on the 10-minute UTC grid`,
    );
  }
  return { from, to, slotCount: length / SLOT_MS };
}

/** Monday 00:00 UTC of ISO week 1: the week that holds January 4. */
function week1Monday(year: number): number {
  const jan4 = new Date(0);
  jan4.setUTCFullYear(year, 0, 4);
  const time = jan4.getTime();
  return time - isoWeekday(time) * DAY_MS;
}

/** 0 for Monday .. 6 for Sunday. */
function isoWeekday(time: number): number {
  return (new Date(time).getUTCDay() + 6) % 7;
}
