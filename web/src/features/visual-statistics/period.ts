/**
 * The period of a visual-statistics view: quick ranges ending now or a custom from/to, the
 * server's period rules mirrored for the form (codes 401-403), and the customer's wall clock
 * (custom dates are typed in the customer's time zone, not the browser's).
 */
import { timeZoneOffsetMinutes } from "../../lib/time-zone.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The quick ranges of the period picker, ending now. */
export const QUICK_RANGES = ["1h", "24h", "7d", "30d", "1y"] as const;
export type QuickRange = (typeof QUICK_RANGES)[number];

const QUICK_RANGE_MS: Record<QuickRange, number> = {
  "1h": HOUR,
  "24h": DAY,
  "7d": 7 * DAY,
  "30d": 30 * DAY,
  "1y": 365 * DAY,
};

/** The range a view starts with when the URL names none. */
export const DEFAULT_RANGE: QuickRange = "24h";

/** A quick range (relative to now) or a fixed period (epoch ms). */
export type PeriodChoice =
  | { kind: "quick"; range: QuickRange }
  | { kind: "custom"; from: number; to: number };

/** A resolved period in epoch ms. */
export interface Period {
  from: number;
  to: number;
}

/** Spec 5 and 9: a statistics period lasts from 10 minutes to 366 days. */
export const PERIOD_LIMITS = { minMinutes: 10, maxDays: 366 } as const;

/** Catalogue keys (namespace `errors`) of the period rules: codes 401, 402 and 403. */
export type PeriodError = "data.periodIncorrect" | "data.periodTooLong" | "data.periodTooShort";

export function isQuickRange(value: unknown): value is QuickRange {
  return typeof value === "string" && (QUICK_RANGES as readonly string[]).includes(value);
}

/**
 * The period a choice stands for at `now`. Quick ranges end at the current minute so that
 * re-renders within a minute ask the server the same question.
 */
export function resolvePeriod(choice: PeriodChoice, now: number): Period {
  if (choice.kind === "custom") return { from: choice.from, to: choice.to };
  const to = Math.floor(now / MINUTE) * MINUTE;
  return { from: to - QUICK_RANGE_MS[choice.range], to };
}

/** The server's period rules (401 incorrect, 402 over 366 days, 403 under 10 minutes). */
export function validatePeriod(
  period: Period,
  limits: { minMinutes: number; maxDays: number } = PERIOD_LIMITS,
): PeriodError | null {
  const { from, to } = period;
  if (!Number.isFinite(from) || !Number.isFinite(to) || from >= to) return "data.periodIncorrect";
  if (to - from > limits.maxDays * DAY) return "data.periodTooLong";
  if (to - from < limits.minMinutes * MINUTE) return "data.periodTooShort";
  return null;
}

/**
 * The period a drag-zoom selected, widened around its middle to the 10-minute minimum so that
 * zooming into a short spike never produces a refused period.
 */
export function zoomPeriod(fromMs: number, toMs: number, minMinutes = PERIOD_LIMITS.minMinutes) {
  const from = Math.round(Math.min(fromMs, toMs) / 1000) * 1000;
  const to = Math.round(Math.max(fromMs, toMs) / 1000) * 1000;
  const min = minMinutes * MINUTE;
  if (to - from >= min) return { from, to };
  const middle = Math.round((from + to) / 2 / 1000) * 1000;
  return { from: middle - min / 2, to: middle + min / 2 };
}

/** `YYYY-MM-DDTHH:mm` (a datetime-local value) of instant `ms` in `timeZone`. */
export function toWallClock(ms: number, timeZone: string): string {
  const offset = timeZoneOffsetMinutes(timeZone, new Date(ms)) ?? 0;
  return new Date(ms + offset * MINUTE).toISOString().slice(0, 16);
}

/**
 * The instant at which the clocks of `timeZone` show `wall` (`YYYY-MM-DDTHH:mm`), or NaN when
 * the text is not a date and time. In the hour skipped by a daylight-saving change, the time
 * after the change is taken.
 */
export function fromWallClock(wall: string, timeZone: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(wall);
  if (!match) return Number.NaN;
  const [, y, mo, d, h, mi] = match.map(Number) as number[];
  const asUtc = Date.UTC(y!, mo! - 1, d!, h!, mi!);
  const check = new Date(asUtc);
  if (check.getUTCMonth() !== mo! - 1 || check.getUTCDate() !== d! || h! > 23) return Number.NaN;
  // Two passes: the offset at the first guess may differ from the offset at the result.
  let at = asUtc - (timeZoneOffsetMinutes(timeZone, new Date(asUtc)) ?? 0) * MINUTE;
  at = asUtc - (timeZoneOffsetMinutes(timeZone, new Date(at)) ?? 0) * MINUTE;
  return at;
}
