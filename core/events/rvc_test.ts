import assert from "node:assert/strict";
import { detectRvc } from "./rvc.ts";

const means = (...values: number[]) => new Float64Array(values);

Deno.test("detectRvc() finds a 3 % step between two steady states with delta-U max and steady", () => {
  assert.deepEqual(detectRvc(means(100, 100, 100, 97, 97, 97), 1), [{
    start_index: 3,
    end_index: 4,
    start_ms: 3_000,
    end_ms: 4_000,
    duration_ms: 1_000,
    delta_u_max_pct: -3,
    delta_u_ss_pct: -3,
  }]);
});

Deno.test("detectRvc() keeps delta-U max from the overshoot of a change", () => {
  const [rvc] = detectRvc(means(100, 100, 100, 104.5, 102, 102, 102), 1);
  assert.equal(rvc!.delta_u_max_pct, 4.5);
  assert.equal(rvc!.delta_u_ss_pct, 2);
  assert.equal(rvc!.duration_ms, 1_000);
});

Deno.test("detectRvc() reports a step smeared over two means as one change", () => {
  const [rvc] = detectRvc(means(100, 100, 98.5, 97, 97, 97), 1);
  assert.equal(rvc!.start_index, 2);
  assert.equal(rvc!.end_index, 3);
  assert.equal(rvc!.delta_u_max_pct, -3);
});

Deno.test("detectRvc() ignores a change within the threshold", () => {
  assert.deepEqual(detectRvc(means(100, 100, 100, 99.2, 99.2, 99.2), 1), []);
  assert.deepEqual(detectRvc(means(100, 100, 100, 98, 98, 98), 3), []);
});

Deno.test("detectRvc() reports a step down to 91 % inside the band as an RVC", () => {
  const [rvc] = detectRvc(means(100, 100, 100, 91, 91, 91), 3);
  assert.equal(rvc!.delta_u_ss_pct, -9);
});

Deno.test("detectRvc() drops a step that crosses 90 % (a dip, not an RVC)", () => {
  assert.deepEqual(detectRvc(means(100, 100, 100, 88, 88, 88, 100, 100, 100), 3), []);
  assert.deepEqual(detectRvc(means(100, 100, 100, 89.9, 95, 95, 95), 3), []);
  assert.deepEqual(detectRvc(means(100, 100, 100, 111, 104, 104, 104), 3), []);
});

Deno.test("detectRvc() reports a short bump that returns to the same level with zero steady change", () => {
  const [rvc] = detectRvc(means(100, 100, 103, 100, 100), 1);
  assert.equal(rvc!.delta_u_max_pct, 3);
  assert.equal(rvc!.delta_u_ss_pct, 0);
});

Deno.test("detectRvc() follows a slow drift without reporting it (the reference slides)", () => {
  const drift = Float64Array.from({ length: 30 }, (_, i) => 100 - 0.3 * i);
  assert.deepEqual(detectRvc(drift, 1), []);
});

Deno.test("detectRvc() needs a steady state before the change and after it", () => {
  assert.deepEqual(detectRvc(means(100, 97, 97, 97), 1), []);
  assert.deepEqual(detectRvc(means(100, 100, 100, 97, 94, 91), 1), []);
});

Deno.test("detectRvc() drops an RVC overlapping a dip found on the half-cycle trace", () => {
  const series = means(100, 100, 100, 97, 97, 97);
  const dip = { start_ms: 3_200, end_ms: 3_260 };
  assert.deepEqual(detectRvc(series, 1, { excursions: [dip] }), []);
  const earlier = { start_ms: 500, end_ms: 560 };
  assert.equal(detectRvc(series, 1, { excursions: [earlier] }).length, 1);
});

Deno.test("detectRvc() reads sliding means every half cycle with steadySamples and intervalMs", () => {
  const series = new Float64Array(300).fill(100, 0, 150).fill(96, 150);
  const [rvc] = detectRvc(series, 2, { intervalMs: 10, steadySamples: 100 });
  assert.equal(rvc!.start_ms, 1_500);
  assert.equal(rvc!.end_ms, 1_510);
  assert.equal(rvc!.delta_u_ss_pct, -4);
});

Deno.test("detectRvc() accepts thresholds of 1 to 6 % of Udin only", () => {
  assert.doesNotThrow(() => detectRvc(means(100), 1));
  assert.doesNotThrow(() => detectRvc(means(100), 6));
  assert.throws(
    () => detectRvc(means(100), 0.5),
    /Cannot detect RVCs: threshold 0.5 % is outside 1..6 % of Udin/,
  );
  assert.throws(() => detectRvc(means(100), 7), /threshold 7 % is outside 1..6 %/);
  assert.throws(() => detectRvc(means(100, NaN), 3), /Cannot detect RVCs: value 1 is not finite/);
  assert.throws(
    () => detectRvc(means(100), 3, { steadySamples: 0 }),
    /steadySamples 0 is not a positive integer/,
  );
});
