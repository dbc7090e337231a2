import assert from "node:assert/strict";
import { EN50160_LV } from "../../core/mod.ts";
import { evaluateFeeder, loadStart, percentile, periodParts, sliceInput } from "./analysis.ts";
import { steadyInput } from "./_test_utils.ts";

const DAY = 86_400_000;
const SLOT = 600_000;
/** Monday 2026-11-09 00:00 UTC (ISO week 46). */
const MONDAY = Date.UTC(2026, 10, 9);

Deno.test("periodParts() cuts a period into its full ISO weeks and the parts around them", () => {
  const from = MONDAY - DAY; // a Sunday
  const parts = periodParts(from, MONDAY + 15 * DAY);
  assert.deepEqual(parts.map((p) => [(p.to - p.from) / DAY, p.full]), [
    [1, false],
    [7, true],
    [7, true],
    [1, false],
  ]);
  assert.deepEqual(periodParts(MONDAY, MONDAY + 3 * DAY).map((p) => p.full), [false]);
  assert.deepEqual(periodParts(MONDAY, MONDAY + 7 * DAY).map((p) => p.full), [true]);
});

Deno.test("percentile() takes the nearest rank", () => {
  const values = Array.from({ length: 100 }, (_, i) => i + 1);
  assert.equal(percentile(values, 95), 95);
  assert.equal(percentile([3], 95), 3);
  assert.equal(percentile([], 95), null);
});

Deno.test("sliceInput() takes the Plt blocks of a part that starts off the 2-hour grid", () => {
  const from = MONDAY - DAY + 30 * 60_000; // Sunday 00:30
  const whole = steadyInput(loadStart(from), MONDAY + 7 * DAY);
  const first = sliceInput(whole, { from, to: MONDAY, full: false });
  assert.equal(first.u[0]!.length, (MONDAY - from) / SLOT);
  assert.equal(first.plt[0]!.length, Math.ceil(first.u[0]!.length / 12));
});

Deno.test("evaluateFeeder() sums the weeks: 50 low intervals of 1,008 pass, 51 fail", () => {
  const from = MONDAY;
  const to = MONDAY + 14 * DAY;
  const input = steadyInput(from, to);
  const l1 = input.u[0] as Float32Array;
  for (let k = 0; k < 50; k++) l1[k * 19] = 200;
  for (let k = 0; k < 51; k++) l1[1008 + k * 19] = 200;
  const { summary } = evaluateFeeder({ id: "f", name: "Feeder" }, input, from, to, EN50160_LV);
  assert.deepEqual(summary.weeks.map((w) => w.passed), [true, false]);
  const voltage = summary.parameters[0]!;
  assert.equal(voltage.parameter, "voltage");
  assert.deepEqual([voltage.n, voltage.n1, voltage.n2, voltage.passed], [2016, 101, 0, false]);
  assert.equal(voltage.phases[0]!.max, 13.043);
  assert.equal(summary.passed, false);
  assert.equal(summary.availability_pct, 100);
});

Deno.test("evaluateFeeder() counts missing intervals and leaves a parameter without data not evaluable", () => {
  const input = steadyInput(MONDAY, MONDAY + DAY);
  for (let i = 0; i < 12; i++) input.u.forEach((s) => (s as Float32Array)[i] = NaN);
  input.h[3]!.forEach((s) => (s as Float32Array).fill(NaN));
  const { summary } = evaluateFeeder(
    { id: "f", name: "F" },
    input,
    MONDAY,
    MONDAY + DAY,
    EN50160_LV,
  );
  assert.equal(summary.missing, 12);
  assert.equal(summary.availability_pct, Math.round((132 / 144) * 10000) / 100);
  assert.equal(summary.parameters.find((p) => p.parameter === "h5")!.passed, null);
  assert.equal(summary.passed, null);
});
