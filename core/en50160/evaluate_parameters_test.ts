import assert from "node:assert/strict";
import { compliantWeek, param, setSlots } from "./_test_utils.ts";
import { ComplianceError, PeriodError } from "./errors.ts";
import { evaluateCompliance, type ParameterId } from "./evaluate.ts";
import { deriveLimitSet, EN50160_LV, HARMONIC_ORDERS, type LimitSet } from "./limits.ts";

function counts(id: ParameterId, input = compliantWeek(), limits?: LimitSet) {
  const p = param(evaluateCompliance(input, limits), id);
  return { n: p.n, n1: p.n1, n2: p.n2, missing: p.missing, flagged: p.flagged, passed: p.passed };
}

Deno.test("evaluateCompliance() checks 50 Hz against 49.5-50.5 Hz and 47-52 Hz", () => {
  const input = compliantWeek();
  setSlots(input.fMax, 0, 1, 50.5);
  setSlots(input.fMin, 1, 1, 49.5);
  setSlots(input.fMax, 2, 1, 52);
  setSlots(input.fMin, 3, 1, 47);
  assert.deepEqual(counts("frequency", input), {
    n: 1008,
    n1: 2,
    n2: 0,
    missing: 0,
    flagged: 0,
    passed: true,
  });
  setSlots(input.fMax, 4, 1, 52.01);
  assert.deepEqual([counts("frequency", input).n2, counts("frequency", input).passed], [1, false]);
});

Deno.test("evaluateCompliance() checks 60 Hz against 59.4-60.6 Hz and 56.4-62.4 Hz", () => {
  const input = compliantWeek({ nominalFrequency: 60 });
  setSlots(input.fMax, 0, 1, 60.6);
  setSlots(input.fMin, 1, 1, 56.4);
  setSlots(input.fMax, 2, 1, 62.4);
  assert.deepEqual([counts("frequency", input).n1, counts("frequency", input).n2], [2, 0]);
  setSlots(input.fMax, 3, 1, 60.61);
  setSlots(input.fMin, 4, 1, 56.39);
  const frequency = counts("frequency", input);
  assert.deepEqual([frequency.n1, frequency.n2, frequency.passed], [4, 1, false]);
});

Deno.test("evaluateCompliance() fails a 60 Hz node whose supply runs at 50 Hz", () => {
  const input = compliantWeek({ nominalFrequency: 50 });
  const wrong = { ...input, nominalFrequency: 60 as const };
  const frequency = counts("frequency", wrong);
  assert.deepEqual([frequency.n1, frequency.n2, frequency.passed], [1008, 1008, false]);
});

Deno.test("evaluateCompliance() allows 0.5 % of the week outside +/-1 % Hz and not one slot more", () => {
  const input = compliantWeek();
  setSlots(input.flagged, 0, 8, 1); // N = 1,000: 5 slots are exactly 0.5 %
  setSlots(input.fMax, 100, 5, 50.6);
  assert.equal(counts("frequency", input).passed, true);
  setSlots(input.fMax, 105, 1, 50.6);
  assert.deepEqual([counts("frequency", input).n1, counts("frequency", input).passed], [6, false]);
});

Deno.test("evaluateCompliance() counts a frequency slot missing one of min and max as missing", () => {
  const input = compliantWeek();
  setSlots(input.fMin, 0, 3, NaN);
  setSlots(input.fMax, 10, 2, NaN);
  setSlots(input.flagged, 20, 4, 1);
  setSlots(input.fMax, 20, 4, 55); // flagged: left out
  assert.deepEqual(counts("frequency", input), {
    n: 999,
    n1: 0,
    n2: 0,
    missing: 5,
    flagged: 4,
    passed: true,
  });
});

Deno.test("evaluateCompliance() checks each harmonic order 2..25 against its own limit", () => {
  const limits = EN50160_LV.harmonics.maxPct;
  for (const [k, order] of HARMONIC_ORDERS.entries()) {
    const input = compliantWeek();
    const series = input.h[k]!;
    series[0]!.fill(limits[order]); // exactly on the limit: inside
    let result = evaluateCompliance(input);
    assert.equal(result.passed, true, `h${order} at its limit`);
    setSlots(series[1]!, 0, 51, limits[order] + 0.01); // 51 of 1,008 slots: over 5 %
    result = evaluateCompliance(input);
    const failed = result.parameters.filter((p) => p.passed === false);
    assert.deepEqual(failed.map((p) => [p.parameter, p.worstPhase, p.n1]), [[
      `h${order}`,
      "L2",
      51,
    ]]);
    assert.equal(failed[0]!.n2, null);
  }
});

Deno.test("evaluateCompliance() passes a 5th harmonic of 5.9 % and fails it under a 5 % custom limit", () => {
  const input = compliantWeek();
  input.h[3]!.forEach((phase) => phase.fill(5.9));
  assert.equal(counts("h5", input).passed, true);
  const custom = deriveLimitSet({ harmonics: { maxPct: { 5: 5 } } });
  assert.deepEqual([counts("h5", input, custom).n1, counts("h5", input, custom).passed], [
    1008,
    false,
  ]);
  assert.equal(counts("h7", input, custom).passed, true);
});

Deno.test("evaluateCompliance() checks THD against 8 % and unbalance against 2 % for 95 %", () => {
  const input = compliantWeek();
  setSlots(input.thd[0]!, 0, 100, 8); // on the limit
  setSlots(input.unbalance, 0, 100, 2);
  assert.equal(counts("thd", input).n1, 0);
  assert.equal(counts("unbalance", input).n1, 0);
  setSlots(input.thd[2]!, 0, 51, 8.01);
  setSlots(input.unbalance, 0, 51, 2.01);
  assert.deepEqual([counts("thd", input).n1, counts("thd", input).passed], [51, false]);
  const unbalance = counts("unbalance", input);
  assert.deepEqual([unbalance.n1, unbalance.n2, unbalance.passed], [51, null, false]);
});

Deno.test("evaluateCompliance() checks 2-hour Plt values against 1 and flags blocks with events", () => {
  const input = compliantWeek();
  setSlots(input.plt[0]!, 0, 4, 1.2); // 4 of 84 blocks: 4.8 %
  setSlots(input.plt[0]!, 4, 1, 1); // on the limit
  assert.deepEqual(counts("flicker", input), {
    n: 84,
    n1: 4,
    n2: null,
    missing: 0,
    flagged: 0,
    passed: true,
  });
  setSlots(input.plt[0]!, 10, 1, 1.5); // 5 of 84: 6 %
  assert.equal(counts("flicker", input).passed, false);
  setSlots(input.flagged, 12 * 10 + 11, 1, 1); // a dip in the block of the fifth value
  setSlots(input.plt[0]!, 20, 2, NaN);
  assert.deepEqual(counts("flicker", input), {
    n: 81,
    n1: 4,
    n2: null,
    missing: 2,
    flagged: 1,
    passed: true,
  });
});

Deno.test("evaluateCompliance() refuses series of the wrong length with code 522 naming each", () => {
  const input = compliantWeek();
  const broken = { ...input, fMin: new Float64Array(1000), thd: input.thd.slice(0, 2) };
  assert.throws(
    () => evaluateCompliance(broken),
    (error: unknown) => {
      assert.ok(error instanceof ComplianceError);
      assert.equal(error.code, 522);
      assert.equal(error.status, 500);
      assert.deepEqual(error.problems, [
        "fMin has 1000 values, expected 1008",
        "thd must hold 3 phase series like u",
      ]);
      return true;
    },
  );
});

Deno.test("evaluateCompliance() refuses a period off the 10-minute grid with code 401", () => {
  const input = compliantWeek();
  const from = new Date(input.period.from.getTime() + 60_000);
  assert.throws(
    () => evaluateCompliance({ ...input, period: { from, to: input.period.to } }),
    (error: unknown) => error instanceof PeriodError && error.code === 401,
  );
});

Deno.test("evaluateCompliance() refuses an invalid limit set with code 522", () => {
  const limits = { ...EN50160_LV, thd: { max: -1, sharePct: 95 } };
  assert.throws(
    () => evaluateCompliance(compliantWeek(), limits),
    (error: unknown) =>
      error instanceof ComplianceError && /thd\.max must be above 0/.test(error.message),
  );
});
