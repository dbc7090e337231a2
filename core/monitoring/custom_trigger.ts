/**
 * Automatic trigger detection: a feeder phase current that changes by more than the configured
 * absolute delta between two consecutive 20-s values. Values further apart than one interval
 * (a missing value) are not consecutive and never fire.
 */

/** Spacing of consecutive cell values (spec 9: measurements are averaged over 20 seconds). */
export const VALUE_INTERVAL_MS = 20_000;

/** One 20-s current value. */
export interface CurrentPoint {
  ts: number;
  i: number;
}

/** A change between two consecutive values. */
export interface CurrentStep {
  before: CurrentPoint;
  after: CurrentPoint;
  /** |after.i - before.i| in A. */
  changeA: number;
}

/**
 * The steps of `points` (ascending by time) whose change exceeds `deltaA` strictly; only pairs
 * whose later value is newer than `newerThan` count, so values already evaluated never fire twice.
 */
export function currentSteps(
  points: readonly CurrentPoint[],
  deltaA: number,
  newerThan = -Infinity,
): CurrentStep[] {
  const steps: CurrentStep[] = [];
  for (let k = 1; k < points.length; k++) {
    const before = points[k - 1]!;
    const after = points[k]!;
    if (after.ts <= newerThan || after.ts - before.ts !== VALUE_INTERVAL_MS) continue;
    const changeA = Math.abs(after.i - before.i);
    if (changeA > deltaA) steps.push({ before, after, changeA });
  }
  return steps;
}
