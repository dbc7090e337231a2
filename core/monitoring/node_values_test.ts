import assert from "node:assert/strict";
import { runStart, timeGrid } from "./node_values.ts";

const classify = (u: number) => (u > 253 ? "OVERVOLTAGE" : "OK");
const series = (points: [number, number][]) => ({
  ts: points.map(([t]) => t),
  u: points.map(([, u]) => u),
  i: points.map(() => 10),
});

Deno.test("runStart finds the first value of the current unbroken run", () => {
  const s = series([[0, 230], [20_000, 255], [40_000, 256], [60_000, 257]]);
  assert.deepEqual(runStart(s, "OVERVOLTAGE", classify), { since: 20_000, reachedStart: false });
  assert.equal(runStart(s, "OK", classify), null, "the newest value is not OK");
});

Deno.test("runStart: a gap longer than the stale time breaks the run", () => {
  const s = series([[0, 255], [20_000, 255], [200_000, 255], [220_000, 255]]);
  assert.deepEqual(runStart(s, "OVERVOLTAGE", classify), { since: 200_000, reachedStart: false });
  const all = series([[0, 255], [20_000, 255]]);
  assert.deepEqual(runStart(all, "OVERVOLTAGE", classify), { since: 0, reachedStart: true });
  assert.equal(runStart(series([]), "OVERVOLTAGE", classify), null);
});

Deno.test("timeGrid: slot starts from the floored start while before the end", () => {
  assert.deepEqual(timeGrid(30_000, 90_000, 20_000), [20_000, 40_000, 60_000, 80_000]);
  assert.deepEqual(timeGrid(40_000, 40_000, 20_000), []);
});
