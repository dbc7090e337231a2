import assert from "node:assert/strict";
import { histogram, percentile } from "./histogram.ts";

Deno.test("histogram() splits min..max into equal bins; the highest value lands in the last", () => {
  const h = histogram([[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, NaN]], 5)!;
  assert.deepEqual(h.bins, [
    { from: 0, to: 2, count: 2 },
    { from: 2, to: 4, count: 2 },
    { from: 4, to: 6, count: 2 },
    { from: 6, to: 8, count: 2 },
    { from: 8, to: 10, count: 3 },
  ]);
  assert.equal(h.count, 11, "gaps are not counted");
  assert.deepEqual([h.min, h.max, h.mean, h.p05, h.p95], [0, 10, 5, 0.5, 9.5]);
});

Deno.test("histogram() pools several phases and counts every value once", () => {
  const h = histogram([[229.5, 230.5], [231.5], [NaN, 232.5]], 4)!;
  assert.equal(h.count, 4);
  assert.deepEqual(h.bins.map((b) => b.count), [1, 1, 1, 1]);
  assert.equal(h.bins.reduce((n, b) => n + b.count, 0), h.count);
});

Deno.test("histogram() of equal values centres one unit around them; no value gives null", () => {
  const h = histogram([[50, 50, 50]], 2)!;
  assert.deepEqual(h.bins, [{ from: 49.5, to: 50, count: 0 }, { from: 50, to: 50.5, count: 3 }]);
  assert.equal(histogram([[NaN], []], 10), null);
});

Deno.test("percentile() interpolates between ranks", () => {
  assert.equal(percentile([1, 2, 3, 4, 5], 0.5), 3);
  assert.equal(percentile([1, 2], 0.95), 1.95);
  assert.equal(percentile([7], 0.05), 7);
});
