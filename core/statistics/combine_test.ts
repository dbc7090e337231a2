import assert from "node:assert/strict";
import { answerValues, combinePhases, hasValues, round2, summarize } from "./combine.ts";

const N = NaN;

Deno.test("combinePhases() means over the phases that have a value", () => {
  const l1 = [230, 231, N, N];
  const l2 = [232, N, N, 228];
  const l3 = [234, 233, N, N];
  assert.deepEqual([...combinePhases([l1, l2, l3], "mean", 4)], [232, 232, N, 228]);
});

Deno.test("combinePhases() sums powers only where every phase has a value", () => {
  const l1 = [10, 11, N];
  const l2 = [20, N, N];
  const l3 = [30, 31, N];
  assert.deepEqual([...combinePhases([l1, l2, l3], "sum", 3)], [60, N, N]);
  assert.deepEqual([...combinePhases([[5, N]], "sum", 2)], [5, N], "a single-phase feeder");
});

Deno.test("combinePhases() takes the extremes over the phases", () => {
  assert.deepEqual([...combinePhases([[1, N], [3, N], [2, 7]], "min", 2)], [1, 7]);
  assert.deepEqual([...combinePhases([[1, N], [3, N], [2, 7]], "max", 2)], [3, 7]);
  assert.deepEqual([...combinePhases([], "mean", 2)], [N, N], "no phase: no value");
});

Deno.test("answerValues() rounds to 2 decimals and keeps gaps as null", () => {
  assert.deepEqual(answerValues([230.456, N, -0.004, 49.995, 1 / 3]), [230.46, null, 0, 50, 0.33]);
  assert.equal(Object.is(round2(-0.001), -0), false);
});

Deno.test("summarize() skips gaps; a curve without values has null figures", () => {
  assert.deepEqual(summarize([1, N, 2.555, 4]), { min: 1, max: 4, mean: 2.52 });
  assert.deepEqual(summarize([N, N]), { min: null, max: null, mean: null });
  assert.equal(hasValues([[N], [N, 0]]), true);
  assert.equal(hasValues([[N], []]), false);
});
