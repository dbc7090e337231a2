import assert from "node:assert/strict";
import { correlate, type CorrelatedInput } from "./grid_events.ts";

const e = (key: string, cellId: string, startMs: number): CorrelatedInput => ({
  key,
  cellId,
  nodeId: `n-${cellId}`,
  kind: "DIP",
  startMs,
  depthPct: 30,
});
const groups = new Map([["mv1", new Set(["n-a", "n-b", "n-c"])], ["mv2", new Set(["n-d", "n-e"])]]);

Deno.test("correlate() groups events of different cells within one second of the first", () => {
  const out = correlate([
    e("1", "a", 10_000),
    e("2", "b", 10_400),
    e("3", "c", 11_000), // exactly 1 s after the first: still in
    e("4", "d", 11_001), // past the second: alone, no grid event
  ], groups);
  assert.equal(out.length, 1);
  assert.deepEqual(out[0]!.events.map((x) => x.key), ["1", "2", "3"]);
  assert.equal(out[0]!.startMs, 10_000);
});

Deno.test("correlate() labels MV when every node of an MV group saw it, else LOCAL", () => {
  const [mv] = correlate([e("1", "a", 0), e("2", "b", 100), e("3", "c", 200)], groups);
  assert.deepEqual([mv!.origin, mv!.mvGroupId], ["MV", "mv1"]);
  const [local] = correlate([e("1", "a", 0), e("2", "b", 100)], groups);
  assert.deepEqual([local!.origin, local!.mvGroupId], ["LOCAL", null]);
  // Across two MV groups, one of them complete: MV.
  const [both] = correlate([e("1", "a", 0), e("2", "d", 10), e("3", "e", 20)], groups);
  assert.deepEqual([both!.origin, both!.mvGroupId], ["MV", "mv2"]);
});

Deno.test("correlate() needs two cells and returns the newest grid event first", () => {
  assert.deepEqual(correlate([e("1", "a", 0), e("2", "a", 10)], groups), []);
  const out = correlate([
    e("1", "a", 0),
    e("2", "b", 5),
    e("3", "a", 60_000),
    e("4", "d", 60_500),
  ], groups);
  assert.deepEqual(out.map((g) => g.startMs), [60_000, 0]);
});
