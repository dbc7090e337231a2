import assert from "node:assert/strict";
import {
  countAlarms,
  evaluateGridStatus,
  type NodeTopology,
  phaseState,
  STALE_MS,
} from "./grid_status.ts";
import { LatestValues } from "./latest.ts";

const T = { overvoltagePct: 10, undervoltagePct: 10, overcurrentPct: 100 };
const NOW = 1_800_000_000_000;

Deno.test("phaseState() keeps exactly +10 % and -10 % of 230 V as OK and flags beyond", () => {
  assert.equal(phaseState(253, 10, 230, 100, T), "OK");
  assert.equal(phaseState(253.1, 10, 230, 100, T), "OVERVOLTAGE");
  assert.equal(phaseState(207, 10, 230, 100, T), "OK");
  assert.equal(phaseState(206.9, 10, 230, 100, T), "UNDERVOLTAGE");
});

Deno.test("phaseState() flags overcurrent above the threshold share of nominal current and interruption below 5 %", () => {
  assert.equal(phaseState(230, 100, 230, 100, T), "OK");
  assert.equal(phaseState(230, 100.5, 230, 100, T), "OVERCURRENT");
  assert.equal(phaseState(260, 120, 230, 100, T), "OVERCURRENT", "the worse of two warnings wins");
  assert.equal(phaseState(11, 0, 230, 100, T), "INTERRUPTION");
  assert.equal(phaseState(NaN, NaN, 230, 100, T), "NO_DATA");
});

function grid(): NodeTopology[] {
  // A transformer station feeding two cabinets in a row.
  const node = (id: string, upstream: string | null, base: number): NodeTopology => ({
    id,
    upstreamNodeId: upstream,
    feeders: [{
      id: `${id}-f1`,
      slot: 1,
      nominalCurrentA: 100,
      series: [base, base + 1, base + 2],
    }],
  });
  return [node("ts", null, 0), node("cab1", "ts", 3), node("cab2", "cab1", 6)];
}

function values(u: (series: number) => number, at = NOW): LatestValues {
  const latest = new LatestValues();
  for (let s = 0; s < 9; s++) latest.update(s, at, u(s), 50);
  return latest;
}

Deno.test("evaluateGridStatus() gives a node the worst state of its phases and feeders", () => {
  const statuses = evaluateGridStatus(grid(), values((s) => (s === 7 ? 200 : 230)), 230, T, NOW);
  assert.deepEqual(statuses.map((s) => s.state), ["OK", "OK", "UNDERVOLTAGE"]);
  assert.deepEqual(statuses[2]!.feeders[0]!.phases.map((p) => p.state), [
    "OK",
    "UNDERVOLTAGE",
    "OK",
  ]);
  assert.equal(countAlarms(statuses), 1);
});

Deno.test("evaluateGridStatus() raises one alarm for an interruption at the station, not one per cabinet", () => {
  const statuses = evaluateGridStatus(grid(), values(() => 0), 230, T, NOW);
  assert.deepEqual(statuses.map((s) => [s.state, s.suppressedBy]), [
    ["INTERRUPTION", null],
    ["INTERRUPTION", "ts"],
    ["INTERRUPTION", "ts"],
  ]);
  assert.equal(countAlarms(statuses), 1);
});

Deno.test("evaluateGridStatus() marks values older than the stale limit as NO_DATA", () => {
  const statuses = evaluateGridStatus(grid(), values(() => 230, NOW - STALE_MS - 1), 230, T, NOW);
  assert.ok(statuses.every((s) => s.state === "NO_DATA"));
  assert.equal(countAlarms(statuses), 1, "a silent station explains its silent cabinets");
  const fresh = evaluateGridStatus(grid(), values(() => 230, NOW - STALE_MS), 230, T, NOW);
  assert.ok(fresh.every((s) => s.state === "OK"));
});

Deno.test("a value exactly at a limit is within it (no floating-point rounding)", () => {
  const t = { overvoltagePct: 10, undervoltagePct: 10, overcurrentPct: 100 };
  const f32 = (v: number) => Math.fround(v);
  assert.equal(phaseState(f32(207), 10, 230, 100, t), "OK");
  assert.equal(phaseState(f32(206.99), 10, 230, 100, t), "UNDERVOLTAGE");
  assert.equal(phaseState(f32(253), 10, 230, 100, t), "OK");
  assert.equal(phaseState(f32(253.01), 10, 230, 100, t), "OVERVOLTAGE");
  assert.equal(phaseState(230, f32(100), 230, 100, t), "OK");
  assert.equal(phaseState(230, f32(100.01), 230, 100, t), "OVERCURRENT");
  assert.equal(phaseState(f32(11.5), 0, 230, 100, t), "UNDERVOLTAGE", "5 % is no interruption");
  assert.equal(phaseState(f32(11.49), 0, 230, 100, t), "INTERRUPTION");
});
