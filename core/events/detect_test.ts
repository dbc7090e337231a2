import assert from "node:assert/strict";
import { detectEvents } from "./detect.ts";
import { interruptionKind } from "./tables.ts";

/** One phase: `[value, half cycles]` runs one after the other. */
function phase(...runs: [number, number][]): number[] {
  return runs.flatMap(([value, count]) => Array<number>(count).fill(value));
}

/** Interleaves equally long phases into the `[L1, L2, L3, L1, ...]` trace layout. */
function trace(...phases: number[][]): Float64Array {
  const length = phases[0]!.length;
  const out = new Float64Array(length * phases.length);
  phases.forEach((values, p) => {
    assert.equal(values.length, length);
    values.forEach((v, k) => (out[k * phases.length + p] = v));
  });
  return out;
}

const NORMAL = 100;

Deno.test("detectEvents() finds a single-phase dip with its offsets, duration and residual", () => {
  const events = detectEvents(trace(phase([NORMAL, 5], [71, 3], [62, 21], [NORMAL, 5])), 10);
  assert.deepEqual(events, [{
    kind: "DIP",
    start_index: 5,
    end_index: 29,
    start_ms: 50,
    end_ms: 290,
    duration_ms: 240,
    extreme_pct: 62,
    start_phase: "L1",
    end_phase: "L1",
    complete: true,
  }]);
});

Deno.test("detectEvents() ignores exactly 90 % and starts a dip at 89.99 %", () => {
  assert.deepEqual(detectEvents(trace(phase([NORMAL, 2], [90, 10], [NORMAL, 2])), 10), []);
  const events = detectEvents(trace(phase([NORMAL, 2], [89.99, 10], [NORMAL, 2])), 10);
  assert.equal(events.length, 1);
  assert.equal(events[0]!.extreme_pct, 89.99);
});

Deno.test("detectEvents() does not end a dip that recovers only to 91 % (2 % hysteresis)", () => {
  const l1 = phase([NORMAL, 3], [85, 5], [91, 5], [85, 5], [NORMAL, 3]);
  const events = detectEvents(trace(l1), 10);
  assert.equal(events.length, 1);
  assert.equal(events[0]!.start_index, 3);
  assert.equal(events[0]!.end_index, 18);
});

Deno.test("detectEvents() ends a dip at the first half cycle back at exactly 92 %", () => {
  const events = detectEvents(trace(phase([NORMAL, 2], [85, 3], [92, 3])), 10);
  assert.equal(events[0]!.end_index, 5);
  assert.equal(events[0]!.duration_ms, 30);
  assert.equal(events[0]!.complete, true);
});

Deno.test("detectEvents() starts a polyphase dip on the first phase and ends it on the last", () => {
  const l1 = phase([NORMAL, 4], [80, 6], [NORMAL, 10]);
  const l2 = phase([NORMAL, 6], [55, 8], [NORMAL, 6]);
  const l3 = phase([NORMAL, 20]);
  const events = detectEvents(trace(l1, l2, l3), 10, ["L1", "L2", "L3"]);
  assert.equal(events.length, 1);
  const dip = events[0]!;
  assert.equal(dip.kind, "DIP");
  assert.equal(dip.start_phase, "L1");
  assert.equal(dip.end_phase, "L2");
  assert.equal(dip.start_index, 4);
  assert.equal(dip.end_index, 14);
  assert.equal(dip.extreme_pct, 55);
});

Deno.test("detectEvents() names L3 first and L1 last when L3 sags first and L1 recovers last", () => {
  const l1 = phase([NORMAL, 5], [70, 10], [NORMAL, 5]);
  const l2 = phase([NORMAL, 20]);
  const l3 = phase([NORMAL, 3], [75, 4], [NORMAL, 13]);
  const [dip] = detectEvents(trace(l1, l2, l3), 10, ["L1", "L2", "L3"]);
  assert.equal(dip!.start_phase, "L3");
  assert.equal(dip!.end_phase, "L1");
  assert.equal(dip!.duration_ms, 120);
});

Deno.test("detectEvents() reports one INTERRUPTION when all phases are below 5 % at once", () => {
  const l1 = phase([NORMAL, 2], [3, 8], [NORMAL, 2]);
  const l2 = phase([NORMAL, 3], [2, 7], [NORMAL, 2]);
  const l3 = phase([NORMAL, 2], [4, 9], [NORMAL, 1]);
  const events = detectEvents(trace(l1, l2, l3), 10, ["L1", "L2", "L3"]);
  assert.equal(events.length, 1);
  assert.equal(events[0]!.kind, "INTERRUPTION");
  assert.equal(events[0]!.start_index, 2);
  assert.equal(events[0]!.end_index, 11);
  assert.equal(events[0]!.extreme_pct, 2);
});

Deno.test("detectEvents() keeps a dip a DIP when one phase stays at or above 5 %", () => {
  const l1 = phase([NORMAL, 2], [3, 8], [NORMAL, 2]);
  const l2 = phase([NORMAL, 2], [1, 8], [NORMAL, 2]);
  const l3 = phase([NORMAL, 2], [5, 8], [NORMAL, 2]);
  const events = detectEvents(trace(l1, l2, l3), 10, ["L1", "L2", "L3"]);
  assert.equal(events.length, 1);
  assert.equal(events[0]!.kind, "DIP");
  assert.equal(events[0]!.extreme_pct, 1);
});

Deno.test("detectEvents() measures an interruption of exactly 180 s, which is short", () => {
  const halfCycles = 18_000; // 180 s at 50 Hz
  const l = phase([NORMAL, 1], [0, halfCycles], [NORMAL, 1]);
  const [event] = detectEvents(trace(l, l, l), 10, ["L1", "L2", "L3"]);
  assert.equal(event!.kind, "INTERRUPTION");
  assert.equal(event!.duration_ms, 180_000);
  assert.equal(interruptionKind(event!.duration_ms), "INTERRUPTION_SHORT");
  const [longer] = detectEvents(trace(phase([NORMAL, 1], [0, halfCycles + 1], [NORMAL, 1])), 10);
  assert.equal(interruptionKind(longer!.duration_ms), "INTERRUPTION_LONG");
});

Deno.test("detectEvents() finds a swell above 110 % that ends only at 108 %", () => {
  const l1 = phase([NORMAL, 2], [115, 10], [109, 3], [108, 2]);
  const events = detectEvents(trace(l1), 10);
  assert.equal(events.length, 1);
  assert.equal(events[0]!.kind, "SWELL");
  assert.equal(events[0]!.extreme_pct, 115);
  assert.equal(events[0]!.end_index, 15);
  assert.deepEqual(detectEvents(trace(phase([NORMAL, 2], [110, 5])), 10), []);
});

Deno.test("detectEvents() reports a dip on L1 and a swell on L2 at the same time, in start order", () => {
  const l1 = phase([NORMAL, 4], [80, 10], [NORMAL, 4]);
  const l2 = phase([NORMAL, 2], [118, 10], [NORMAL, 6]);
  const events = detectEvents(trace(l1, l2), 10, ["L1", "L2"]);
  assert.deepEqual(events.map((e) => [e.kind, e.start_phase, e.start_index]), [
    ["SWELL", "L2", 2],
    ["DIP", "L1", 4],
  ]);
});

Deno.test("detectEvents() returns a dip still running at the end of the trace as incomplete", () => {
  const events = detectEvents(trace(phase([80, 4], [NORMAL, 2], [70, 3])), 10);
  assert.equal(events.length, 2);
  assert.equal(events[0]!.start_index, 0);
  assert.equal(events[0]!.complete, true);
  assert.deepEqual(
    [events[1]!.end_index, events[1]!.end_phase, events[1]!.complete, events[1]!.duration_ms],
    [9, null, false, 30],
  );
});

Deno.test("detectEvents() times a 60 Hz trace in 8.33 ms half cycles", () => {
  const [dip] = detectEvents(trace(phase([NORMAL, 1], [50, 12], [NORMAL, 1])), 1000 / 120);
  assert.ok(Math.abs(dip!.duration_ms - 100) < 1e-9);
});

Deno.test("detectEvents() refuses a trace that does not fit the phases or holds NaN", () => {
  assert.throws(
    () => detectEvents(new Float64Array(7), 10, ["L1", "L2", "L3"]),
    /Cannot detect events: trace length 7 is not a multiple of 3 phases/,
  );
  assert.throws(
    () => detectEvents(new Float64Array([100, NaN]), 10),
    /Cannot detect events: value 1 is not finite/,
  );
  assert.throws(
    () => detectEvents(new Float64Array([100]), 0),
    /Cannot detect events: half cycle 0 ms is not positive/,
  );
});
