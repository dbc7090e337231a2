import assert from "node:assert/strict";
import {
  collectFlagged,
  countAbove,
  countFrequency,
  COUNTS,
  countSeries,
  lowerLimit,
  upperLimit,
} from "./_count.ts";

/** Slot-by-slot reference of what the unrolled loops must count: [n1, n2, missing]. */
function reference(values: ArrayLike<number>, flagged: Uint8Array, bounds: number[]) {
  const [lo, hi, lo100, hi100] = bounds as [number, number, number, number];
  const counts = [0, 0, 0];
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (flagged[i]) continue;
    if (Number.isNaN(v)) counts[2]!++;
    else if (v < lo || v > hi) {
      counts[0]!++;
      if (v < lo100 || v > hi100) counts[1]!++;
    }
  }
  return counts;
}

// Deterministic pseudo-random numbers, so a failure can be replayed.
function generator(seed: number) {
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
}

Deno.test("countSeries() and countAbove() match a slot-by-slot count at every length and mix", () => {
  const random = generator(42);
  for (let round = 0; round < 300; round++) {
    const length = 1 + Math.floor(random() * 60);
    const values = new Float32Array(length);
    const flagged = new Uint8Array(length);
    const outside = random() * 0.5;
    for (let i = 0; i < length; i++) {
      const r = random();
      values[i] = r < 0.05 ? NaN : r < 0.05 + outside ? 80 + random() * 200 : 190 + random() * 20;
      flagged[i] = random() < 0.1 ? 1 : 0;
    }
    const { indices, count } = collectFlagged(flagged);
    countSeries(values, 180, 220, 150, 230, indices, count);
    assert.deepEqual(
      [...COUNTS],
      reference(values, flagged, [180, 220, 150, 230]),
      `round ${round}`,
    );
    countAbove(values, 220, indices, count);
    const [n1, , missing] = reference(values, flagged, [-Infinity, 220, -Infinity, Infinity]);
    assert.deepEqual([...COUNTS], [n1, 0, missing], `round ${round}`);
  }
});

Deno.test("countFrequency() judges a slot by its lowest and highest 10-s mean", () => {
  const fMin = new Float64Array([50, 49.4, 49.9, NaN, 46.9, 49.9]);
  const fMax = new Float64Array([50.1, 50.1, 50.6, 50, 50, 52.1]);
  const flagged = new Uint8Array([0, 0, 0, 0, 1, 0]);
  countFrequency(fMin, fMax, 49.5, 50.5, 47, 52, flagged);
  assert.deepEqual([...COUNTS], [3, 1, 1]);
});

Deno.test("upperLimit() and lowerLimit() absorb binary rounding but not a 0.01 V step", () => {
  assert.ok(211.6 < 230 * (1 - 8 / 100)); // the rounding that the tolerance is for
  assert.ok(211.6 >= lowerLimit(230 * (1 - 8 / 100)));
  assert.ok(57.5 <= upperLimit(50 * (1 + 15 / 100)));
  assert.ok(253.01 > upperLimit(230 * 1.1));
  assert.ok(206.99 < lowerLimit(230 * 0.9));
});
