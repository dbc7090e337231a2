import assert from "node:assert/strict";
import { compliantWeek, setSlots, type TestInput } from "./_test_utils.ts";
import { ComplianceError } from "./errors.ts";
import { evaluateCompliance, type RecordCounts } from "./evaluate.ts";
import { deriveLimitSet, EN50160_LV, HARMONIC_ORDERS } from "./limits.ts";

/**
 * The counts of `input`'s harmonics and unbalance over its unflagged slots, as a caller would
 * keep them.
 */
function countsOf(input: TestInput, maxPct = EN50160_LV.harmonics.maxPct): RecordCounts {
  const phases = input.u.length;
  const valid = new Int32Array(HARMONIC_ORDERS.length * phases);
  const above = new Int32Array(HARMONIC_ORDERS.length * phases);
  HARMONIC_ORDERS.forEach((order, k) =>
    input.h[k]!.forEach((series, p) =>
      series.forEach((v, slot) => {
        if (input.flagged[slot] || Number.isNaN(v)) return;
        valid[k * phases + p]!++;
        if (v > maxPct[order]) above[k * phases + p]!++;
      })
    )
  );
  const unbalanceMax = EN50160_LV.unbalance.max;
  const unbalance = new Int32Array(2);
  input.unbalance.forEach((v, slot) => {
    if (input.flagged[slot] || Number.isNaN(v)) return;
    unbalance[0]!++;
    if (v > unbalanceMax) unbalance[1]!++;
  });
  return { maxPct, valid, above, unbalanceMax, unbalance };
}

Deno.test("evaluateCompliance() gives the same result from harmonic and unbalance counts as from the values", () => {
  const input = compliantWeek();
  setSlots(input.h[3]![1]!, 0, 60, 6.5); // h5 on L2: 60 slots above 6 %, 10 of them flagged
  input.h[0]![0]!.fill(2); // h2 on L1 on its limit: inside
  setSlots(input.h[0]![2]!, 100, 20, 2.01);
  setSlots(input.h[5]![0]!, 300, 40, NaN); // h7 on L1: missing
  setSlots(input.unbalance, 40, 70, 2.5); // 70 above 2 %, 20 of them flagged (50..69)
  input.unbalance[400] = 2; // on its limit: inside
  setSlots(input.unbalance, 500, 30, NaN);
  input.flagged.fill(1, 50, 70);
  const fromValues = evaluateCompliance(input);
  const empty = new Float32Array(0);
  const fromCounts = evaluateCompliance({
    ...input,
    h: [],
    unbalance: empty,
    recordCounts: countsOf(input),
  });
  assert.deepEqual(fromCounts, fromValues);
  const h5 = fromValues.parameters.find((p) => p.parameter === "h5")!;
  assert.deepEqual([h5.n1, h5.flagged, h5.worstPhase, h5.passed], [50, 20, "L2", false]);
  const unbalance = fromValues.parameters.find((p) => p.parameter === "unbalance")!;
  assert.deepEqual([unbalance.n1, unbalance.flagged, unbalance.missing], [50, 20, 30]);
});

Deno.test("evaluateCompliance() refuses record counts made against other limits, or impossible ones", () => {
  const input = compliantWeek();
  const counts = countsOf(input);
  const custom = deriveLimitSet({ harmonics: { maxPct: { 5: 5 } } });
  const counted = (recordCounts: RecordCounts) => ({ ...input, h: [], recordCounts });
  assert.throws(
    () => evaluateCompliance(counted(counts), custom),
    (e) => e instanceof ComplianceError && e.code === 522 && /h5/.test(e.problems.join()),
  );
  const strict = deriveLimitSet({ unbalance: { max: 1.5 } });
  assert.throws(
    () => evaluateCompliance(counted(counts), strict),
    (e) => e instanceof ComplianceError && /unbalance/.test(e.problems.join()),
  );
  const above = Int32Array.from(counts.valid, (v) => v + 1);
  assert.throws(() => evaluateCompliance(counted({ ...counts, above })), ComplianceError);
  const unbalance = Int32Array.of(10, 11);
  assert.throws(() => evaluateCompliance(counted({ ...counts, unbalance })), /unbalance: 11 above/);
  const short = { ...counts, valid: new Int32Array(3) };
  assert.throws(() => evaluateCompliance(counted(short)), /Int32Array/);
});
