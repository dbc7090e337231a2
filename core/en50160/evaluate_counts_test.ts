import assert from "node:assert/strict";
import { compliantWeek, setSlots, type TestInput } from "./_test_utils.ts";
import { ComplianceError } from "./errors.ts";
import { evaluateCompliance, type HarmonicCounts } from "./evaluate.ts";
import { deriveLimitSet, EN50160_LV, HARMONIC_ORDERS } from "./limits.ts";

/** The counts of `input`'s harmonics over its unflagged slots, as a caller would keep them. */
function countsOf(input: TestInput, maxPct = EN50160_LV.harmonics.maxPct): HarmonicCounts {
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
  return { maxPct, valid, above };
}

Deno.test("evaluateCompliance() gives the same result from harmonic counts as from the values", () => {
  const input = compliantWeek();
  setSlots(input.h[3]![1]!, 0, 60, 6.5); // h5 on L2: 60 slots above 6 %, 10 of them flagged
  input.h[0]![0]!.fill(2); // h2 on L1 on its limit: inside
  setSlots(input.h[0]![2]!, 100, 20, 2.01);
  setSlots(input.h[5]![0]!, 300, 40, NaN); // h7 on L1: missing
  input.flagged.fill(1, 50, 70);
  const fromValues = evaluateCompliance(input);
  const fromCounts = evaluateCompliance({ ...input, h: [], harmonicCounts: countsOf(input) });
  assert.deepEqual(fromCounts, fromValues);
  const h5 = fromValues.parameters.find((p) => p.parameter === "h5")!;
  assert.deepEqual([h5.n1, h5.flagged, h5.worstPhase, h5.passed], [50, 20, "L2", false]);
});

Deno.test("evaluateCompliance() refuses harmonic counts made against other limits, or impossible ones", () => {
  const input = compliantWeek();
  const counts = countsOf(input);
  const custom = deriveLimitSet({ harmonics: { maxPct: { 5: 5 } } });
  assert.throws(
    () => evaluateCompliance({ ...input, h: [], harmonicCounts: counts }, custom),
    (e) => e instanceof ComplianceError && e.code === 522 && /h5/.test(e.problems.join()),
  );
  const above = Int32Array.from(counts.valid, (v) => v + 1);
  assert.throws(
    () => evaluateCompliance({ ...input, h: [], harmonicCounts: { ...counts, above } }),
    ComplianceError,
  );
  const short = { ...counts, valid: new Int32Array(3) };
  assert.throws(() => evaluateCompliance({ ...input, h: [], harmonicCounts: short }), /Int32Array/);
});
