import assert from "node:assert/strict";
import { DEEP_PCT, depthState, hasVerdict, verdictState } from "./map-states.ts";

Deno.test("verdictState() colours passed ok, not passed critical, not evaluable unknown", () => {
  assert.deepEqual([true, false, null].map(verdictState), ["ok", "critical", "unknown"]);
});

Deno.test("hasVerdict() keeps the nodes of the filtered verdict only", () => {
  const all = [true, false, null];
  assert.deepEqual(all.filter((p) => hasVerdict(p, "ALL")), all);
  assert.deepEqual(all.filter((p) => hasVerdict(p, "PASSED")), [true]);
  assert.deepEqual(all.filter((p) => hasVerdict(p, "NOT_PASSED")), [false]);
  assert.deepEqual(all.filter((p) => hasVerdict(p, "NONE")), [null]);
});

Deno.test("depthState() turns critical at 40 % depth, unknown without a depth", () => {
  assert.equal(DEEP_PCT, 40);
  assert.deepEqual(
    [0, 39.99, 40, 100, null].map(depthState),
    ["warning", "warning", "critical", "critical", "unknown"],
  );
});
