/**
 * Pure rules of IO monitoring: the period of a history request, the analog resolution for a
 * period, the regular slot grid with gaps, the step series of a digital channel, and the
 * detection of a digital state change for notifications.
 */
import { AppError } from "../../kernel/mod.ts";

/** The cells' I/O cadence: one value per channel and 20-s window. */
export const CADENCE_MS = 20_000;
/** A digital channel without a value for longer than this has a gap (a missed batch is no gap). */
export const GAP_MS = 5 * 60_000;
export const MIN_PERIOD_MS = 10 * 60_000;
export const MAX_PERIOD_DAYS = 366;
const DAY_MS = 86_400_000;

/** Parses `from`/`to` (ISO instants): 401 unparsable or from >= to, 402 > 366 days, 403 < 10 min. */
export function parsePeriod(from: string, to: string): { from: number; to: number } {
  const f = Date.parse(from);
  const t = Date.parse(to);
  if (Number.isNaN(f) || Number.isNaN(t) || f >= t) throw new AppError(401);
  if (t - f > MAX_PERIOD_DAYS * DAY_MS) throw new AppError(402);
  if (t - f < MIN_PERIOD_MS) throw new AppError(403);
  return { from: f, to: t };
}

/** Analog resolutions: raw 20-s values, 10-minute, hourly or daily mean/min/max. */
export type Resolution = "20s" | "10min" | "1h" | "1d";
export const STEP_MS: Readonly<Record<Resolution, number>> = {
  "20s": CADENCE_MS,
  "10min": 600_000,
  "1h": 3_600_000,
  "1d": DAY_MS,
};

/** The coarsest step that still gives a readable curve (at most ~1,100 points up to 366 days). */
export function resolutionFor(periodMs: number): Resolution {
  if (periodMs <= 6 * 3_600_000) return "20s";
  if (periodMs <= 7 * DAY_MS) return "10min";
  if (periodMs <= 92 * DAY_MS) return "1h";
  return "1d";
}

/** Slot starts from `from` floored to the step up to (excluding) `to`. */
export function slotGrid(from: number, to: number, stepMs: number): number[] {
  const times: number[] = [];
  for (let t = from - (from % stepMs); t < to; t += stepMs) times.push(t);
  return times;
}

/** One downsampled slot of an analog channel. */
export interface AnalogSlot {
  slot: number;
  mean: number;
  min: number;
  max: number;
}

/** Places slots on the grid; missing slots are null (gaps stay gaps). Values to 2 decimals. */
export function alignSlots(
  times: readonly number[],
  slots: readonly AnalogSlot[],
): { mean: (number | null)[]; min: (number | null)[]; max: (number | null)[] } {
  const index = new Map(times.map((t, k) => [t, k]));
  const mean: (number | null)[] = times.map(() => null);
  const min = mean.slice();
  const max = mean.slice();
  for (const s of slots) {
    const k = index.get(s.slot);
    if (k === undefined) continue;
    mean[k] = round2(s.mean);
    min[k] = round2(s.min);
    max[k] = round2(s.max);
  }
  return { mean, min, max };
}

export const round2 = (v: number) => Math.round(v * 100) / 100 + 0;

/** A stored digital value where the state changed, started, or resumed after a gap. */
export interface ChangeRow {
  ts: number;
  value: number;
  /** The channel's previous stored value time, null for the first in the query window. */
  prevTs: number | null;
}

/** A point of a step series: the state from `t` on; null starts a gap. */
export interface StepPoint {
  t: number;
  value: 0 | 1 | null;
}

/**
 * The step series of a digital channel over `[from, end)` from its change rows (sorted by time)
 * and its newest value time in the window: a gap starts one cadence after the value before it,
 * the last state extends to `end` unless the data stopped (then a gap follows it).
 */
export function stepSeries(
  rows: readonly ChangeRow[],
  last: { ts: number; value: number } | null,
  from: number,
  end: number,
): StepPoint[] {
  const out: StepPoint[] = [];
  const push = (t: number, value: 0 | 1 | null) => {
    const at = Math.max(t, from);
    if (at >= end) return;
    const prev = out[out.length - 1];
    if (prev && prev.t === at) prev.value = value;
    else if (!prev || prev.value !== value) out.push({ t: at, value });
  };
  for (const r of rows) {
    if (r.prevTs !== null && r.ts - r.prevTs > GAP_MS) push(r.prevTs + CADENCE_MS, null);
    push(r.ts, r.value ? 1 : 0);
  }
  if (last) {
    if (end - last.ts > GAP_MS) push(last.ts + CADENCE_MS, null);
    else if (out.length) out.push({ t: end, value: last.value ? 1 : 0 });
  }
  return out;
}

/** The state the watcher last saw of a channel. */
export interface KnownState {
  value: number;
  changedAt: number;
}

/** What to do about a channel after reading its recent values. */
export interface StateDecision {
  value: 0 | 1;
  changedAt: number;
  /** A fresh change of a known state: notify. Otherwise only remember it. */
  notify: boolean;
}

/**
 * Compares a channel's recent values (sorted by time) with the state last seen: null when
 * nothing changed; a first sight or a change older than `freshMs` (history filled in after a
 * restart) is remembered silently; a fresh change is to be notified, once.
 */
export function detectChange(
  recent: readonly { ts: number; value: number }[],
  known: KnownState | null,
  now: number,
  freshMs: number,
): StateDecision | null {
  const newest = recent[recent.length - 1];
  if (!newest) return null;
  const value: 0 | 1 = newest.value ? 1 : 0;
  if (known && known.value === value) return null;
  let k = recent.length - 1;
  while (k > 0 && (recent[k - 1]!.value ? 1 : 0) === value) k--;
  const changedAt = recent[k]!.ts;
  return { value, changedAt, notify: known !== null && now - changedAt <= freshMs };
}
