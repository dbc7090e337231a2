import assert from "node:assert/strict";
import { AppError } from "../../kernel/mod.ts";
import {
  alignSlots,
  CADENCE_MS,
  detectChange,
  GAP_MS,
  parsePeriod,
  resolutionFor,
  slotGrid,
  stepSeries,
} from "./series.ts";

const T0 = Date.UTC(2026, 10, 22, 8);
const MIN = 60_000;
const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error instanceof AppError ? error.entry.code : "other";
  }
  return null;
};

Deno.test("parsePeriod() answers 401 unparsable or reversed, 402 beyond 366 days, 403 under 10 minutes", () => {
  const at = (ms: number) => new Date(ms).toISOString();
  assert.equal(code(() => parsePeriod("yesterday", at(T0))), 401);
  assert.equal(code(() => parsePeriod(at(T0), at(T0))), 401);
  assert.equal(code(() => parsePeriod(at(T0), at(T0 - MIN))), 401);
  assert.equal(code(() => parsePeriod(at(T0), at(T0 + 366 * 86_400_000 + 1))), 402);
  assert.equal(code(() => parsePeriod(at(T0), at(T0 + 10 * MIN - 1))), 403);
  assert.deepEqual(parsePeriod(at(T0), at(T0 + 10 * MIN)), { from: T0, to: T0 + 10 * MIN });
  assert.equal(code(() => parsePeriod(at(T0), at(T0 + 366 * 86_400_000))), null);
});

Deno.test("resolutionFor() downsamples long periods: raw to 6 h, 10 min to 7 d, 1 h to 92 d, then daily", () => {
  const h = 3_600_000;
  assert.deepEqual(
    [6 * h, 6 * h + 1, 7 * 24 * h, 7 * 24 * h + 1, 92 * 24 * h, 93 * 24 * h].map(resolutionFor),
    ["20s", "10min", "10min", "1h", "1h", "1d"],
  );
});

Deno.test("slotGrid() and alignSlots() keep missing slots as null and round to 2 decimals", () => {
  const times = slotGrid(T0 + 3 * MIN, T0 + 40 * MIN, 10 * MIN);
  assert.deepEqual(times, [T0, T0 + 10 * MIN, T0 + 20 * MIN, T0 + 30 * MIN]);
  const aligned = alignSlots(times, [
    { slot: T0, mean: 12.3456, min: 12, max: 12.7 },
    { slot: T0 + 30 * MIN, mean: 13, min: 12.994, max: 13.006 },
    { slot: T0 + 90 * MIN, mean: 1, min: 1, max: 1 },
  ]);
  assert.deepEqual(aligned.mean, [12.35, null, null, 13]);
  assert.deepEqual(aligned.min, [12, null, null, 12.99]);
  assert.deepEqual(aligned.max, [12.7, null, null, 13.01]);
});

Deno.test("stepSeries() gives the state changes, a gap after missing values, and extends to the end", () => {
  const rows = [
    { ts: T0 - 2 * MIN, value: 0, prevTs: null },
    { ts: T0 + 5 * MIN, value: 1, prevTs: T0 + 5 * MIN - CADENCE_MS },
    { ts: T0 + 30 * MIN, value: 1, prevTs: T0 + 10 * MIN },
    { ts: T0 + 40 * MIN, value: 0, prevTs: T0 + 40 * MIN - CADENCE_MS },
  ];
  const last = { ts: T0 + 59 * MIN, value: 0 };
  assert.deepEqual(stepSeries(rows, last, T0, T0 + 60 * MIN), [
    { t: T0, value: 0 },
    { t: T0 + 5 * MIN, value: 1 },
    { t: T0 + 10 * MIN + CADENCE_MS, value: null },
    { t: T0 + 30 * MIN, value: 1 },
    { t: T0 + 40 * MIN, value: 0 },
    { t: T0 + 60 * MIN, value: 0 },
  ]);
  // The data stopped: a gap follows the last value instead of a state up to the end.
  assert.deepEqual(
    stepSeries(rows.slice(0, 2), { ts: T0 + 6 * MIN, value: 1 }, T0, T0 + 60 * MIN),
    [
      { t: T0, value: 0 },
      { t: T0 + 5 * MIN, value: 1 },
      { t: T0 + 6 * MIN + CADENCE_MS, value: null },
    ],
  );
  assert.deepEqual(stepSeries([], null, T0, T0 + GAP_MS), []);
});

Deno.test("detectChange() remembers a first sight silently, notifies a fresh change once, not an old one", () => {
  const now = T0 + 10 * MIN;
  const values = (...v: number[]) => v.map((value, k) => ({ ts: T0 + k * CADENCE_MS, value }));
  assert.deepEqual(detectChange(values(0, 0, 1, 1), null, now, 10 * MIN), {
    value: 1,
    changedAt: T0 + 2 * CADENCE_MS,
    notify: false,
  });
  const known = { value: 0, changedAt: T0 - 86_400_000 };
  assert.deepEqual(detectChange(values(0, 0, 1, 1), known, now, 10 * MIN), {
    value: 1,
    changedAt: T0 + 2 * CADENCE_MS,
    notify: true,
  });
  // The same state again: nothing to do (no second notification).
  assert.equal(detectChange(values(1, 1, 1), { value: 1, changedAt: T0 }, now, 10 * MIN), null);
  assert.equal(detectChange([], known, now, 10 * MIN), null);
  // A change found only after a restart, long ago: remembered, not notified.
  assert.equal(detectChange(values(1), known, T0 + 60 * MIN, 10 * MIN)!.notify, false);
});
