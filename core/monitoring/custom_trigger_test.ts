import assert from "node:assert/strict";
import { type CurrentPoint, currentSteps, VALUE_INTERVAL_MS } from "./custom_trigger.ts";

const T0 = Date.parse("2026-11-22T10:00:00Z");
const series = (...currents: number[]): CurrentPoint[] =>
  currents.map((i, k) => ({ ts: T0 + k * VALUE_INTERVAL_MS, i }));

Deno.test("currentSteps() fires strictly above the delta, not at exactly the delta", () => {
  assert.deepEqual(currentSteps(series(40, 90), 50), []);
  const steps = currentSteps(series(40, 90.5), 50);
  assert.equal(steps.length, 1);
  assert.equal(steps[0]!.changeA, 50.5);
  assert.equal(steps[0]!.before.ts, T0);
  assert.equal(steps[0]!.after.ts, T0 + VALUE_INTERVAL_MS);
});

Deno.test("currentSteps() counts rises and drops by their absolute change", () => {
  const steps = currentSteps(series(100, 20, 20, 150), 60);
  assert.deepEqual(steps.map((s) => s.changeA), [80, 130]);
});

Deno.test("currentSteps() compares only consecutive 20-s values, never across a gap", () => {
  const gap: CurrentPoint[] = [{ ts: T0, i: 10 }, { ts: T0 + 2 * VALUE_INTERVAL_MS, i: 500 }];
  assert.deepEqual(currentSteps(gap, 1), []);
});

Deno.test("currentSteps() skips pairs already evaluated and values without a current", () => {
  const points = series(10, 200, 10);
  assert.equal(currentSteps(points, 50).length, 2);
  assert.equal(currentSteps(points, 50, T0 + VALUE_INTERVAL_MS).length, 1);
  assert.deepEqual(currentSteps(series(10, NaN, 200), 50), []);
});
