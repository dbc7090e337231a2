/**
 * Periods of visual statistics: the rules of spec 5 and 8.2 (401 incorrect, 402 over 366 days,
 * 403 under 10 minutes), the level a period is read from, and the regular grid of time slots an
 * answer is laid on. Pure.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * The levels of the streaming core, finest first: table, time column and slot length, and the
 * table of the PQ values (10-minute records; the 20-s level reads them per 10 minutes).
 */
export const RESOLUTIONS = Object.freeze({
  "20s": { stepMs: 20_000, table: "raw_measurements", time: "ts", pqTable: "pq_10min" },
  "10min": { stepMs: 10 * MINUTE, table: "agg_10min", time: "slot", pqTable: "pq_10min" },
  "1h": { stepMs: HOUR, table: "agg_1h", time: "slot", pqTable: "pq_1h" },
  "1d": { stepMs: DAY, table: "agg_1d", time: "slot", pqTable: "pq_1d" },
});

/** Slot length of the PQ tables of a level (10 minutes for the 20-s level). */
export function pqStepMs(resolution: keyof typeof RESOLUTIONS): number {
  return Math.max(RESOLUTIONS[resolution].stepMs, 10 * MINUTE);
}
export type Resolution = keyof typeof RESOLUTIONS;
export const RESOLUTION_NAMES = Object.keys(RESOLUTIONS) as Resolution[];

/** Period limits of spec 5 ("Report or analysis period from 10 minutes to 366 days"). */
export const PERIOD_LIMITS = Object.freeze({ maxPeriodDays: 366, minPeriodMinutes: 10 });

/**
 * Longest period each level serves with `resolution=auto`: the coarsest table that still draws
 * a readable curve (a day of 20-s values is 4,320 points, a year of days 366).
 */
export const AUTO_MAX_MS: Readonly<Record<Exclude<Resolution, "1d">, number>> = Object.freeze({
  "20s": 6 * HOUR,
  "10min": 7 * DAY,
  "1h": 92 * DAY,
});

/** Most slots one answer may lay out (an explicit fine resolution over a long period). */
export const MAX_POINTS = 50_000;

/** Period error keys of the error catalogue (codes 401, 402, 403). */
export type PeriodErrorKey = "data.periodIncorrect" | "data.periodTooLong" | "data.periodTooShort";

// An ISO 8601 instant: date, time and an offset (Z or +hh:mm), seconds and fraction optional.
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** Epoch ms of an ISO 8601 instant, or NaN when it is not one (or not a real date). */
export function parseInstant(text: string): number {
  if (!ISO_INSTANT.test(text)) return NaN;
  const ms = Date.parse(text);
  // Date.parse rolls 2026-02-31 over to March: a date that does not exist is refused.
  if (!Number.isFinite(ms)) return NaN;
  const date = text.slice(0, 10);
  const offset = /(Z|[+-]\d{2}:\d{2})$/.exec(text)![1]!;
  const minutes = offset === "Z"
    ? 0
    : (offset[0] === "-" ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4)));
  const local = new Date(ms + minutes * MINUTE).toISOString().slice(0, 10);
  return local === date ? ms : NaN;
}

/** A checked period `[from, to)` in epoch ms, or the key of the rule it breaks. */
export function checkPeriod(
  fromText: string,
  toText: string,
): { from: number; to: number } | { error: PeriodErrorKey } {
  const from = parseInstant(fromText);
  const to = parseInstant(toText);
  if (!Number.isFinite(from) || !Number.isFinite(to) || from >= to) {
    return { error: "data.periodIncorrect" };
  }
  if (to - from > PERIOD_LIMITS.maxPeriodDays * DAY) return { error: "data.periodTooLong" };
  if (to - from < PERIOD_LIMITS.minPeriodMinutes * MINUTE) return { error: "data.periodTooShort" };
  return { from, to };
}

/** The level `resolution=auto` reads a period of `periodMs` from. */
export function autoResolution(periodMs: number): Resolution {
  if (periodMs <= AUTO_MAX_MS["20s"]) return "20s";
  if (periodMs <= AUTO_MAX_MS["10min"]) return "10min";
  if (periodMs <= AUTO_MAX_MS["1h"]) return "1h";
  return "1d";
}

/** The regular slots of an answer: starts at `start + k * stepMs` for `k < count` (epoch ms). */
export interface SlotGrid {
  start: number;
  stepMs: number;
  count: number;
}

/**
 * The slots from `from` floored to the step (UTC, like the aggregates' slots) up to `to`
 * (exclusive): every slot whose start lies before `to`.
 */
export function slotGrid(from: number, to: number, stepMs: number): SlotGrid {
  const start = Math.floor(from / stepMs) * stepMs;
  return { start, stepMs, count: Math.max(0, Math.ceil((to - start) / stepMs)) };
}

/** The slot starts of a grid (epoch ms), as the answer's `times`. */
export function gridTimes(grid: SlotGrid): number[] {
  return Array.from({ length: grid.count }, (_, k) => grid.start + k * grid.stepMs);
}
