import assert from "node:assert/strict";
import { compliantWeek, param, setSlots } from "./_test_utils.ts";
import { evaluateCompliance } from "./evaluate.ts";
import { deriveLimitSet, HARMONIC_ORDERS } from "./limits.ts";

Deno.test("evaluateCompliance() passes a clean week on every parameter", () => {
  const result = evaluateCompliance(compliantWeek());
  assert.equal(result.passed, true);
  assert.equal(result.slotCount, 1008);
  assert.deepEqual(result.summary, { passed: 29, failed: 0, notEvaluable: 0 });
  assert.deepEqual(
    result.parameters.map((p) => p.parameter),
    ["voltage", "frequency", "flicker", "unbalance", "thd", ...HARMONIC_ORDERS.map((o) => `h${o}`)],
  );
  const voltage = param(result, "voltage");
  assert.deepEqual(
    [voltage.n, voltage.n1, voltage.n2, voltage.flagged, voltage.missing, voltage.ratioN1],
    [1008, 0, 0, 0, 0, 0],
  );
});

Deno.test("evaluateCompliance() counts a slot at exactly +10 % as inside the band", () => {
  const input = compliantWeek();
  setSlots(input.u[0]!, 5, 1, 253); // 230 V + 10 %
  const voltage = param(evaluateCompliance(input), "voltage");
  assert.equal(voltage.n1, 0);
  assert.equal(voltage.n2, 0);
  assert.equal(voltage.passed, true);
});

Deno.test("evaluateCompliance() counts a slot at exactly -10 % as inside the band", () => {
  const input = compliantWeek();
  setSlots(input.u[1]!, 7, 3, 207); // 230 V - 10 %
  assert.equal(param(evaluateCompliance(input), "voltage").n1, 0);
});

Deno.test("evaluateCompliance() counts exact limits of 120 V at 60 Hz as inside the band", () => {
  const input = compliantWeek({ nominalVoltage: 120, nominalFrequency: 60 });
  setSlots(input.u[0]!, 0, 1, 108);
  setSlots(input.u[0]!, 1, 1, 132);
  setSlots(input.u[0]!, 2, 1, 102);
  const voltage = param(evaluateCompliance(input), "voltage");
  assert.deepEqual([voltage.n1, voltage.n2], [1, 0]);
});

Deno.test("evaluateCompliance() keeps a value on a limit inside despite binary rounding", () => {
  // 230 x (1 - 8 / 100) is 211.60000000000002 in binary floating point: 211.6 V is on the limit.
  const custom = deriveLimitSet({ voltage: { band: { lowerPct: -8, upperPct: 8 } } });
  const input = compliantWeek();
  setSlots(input.u[0]!, 0, 1, 211.6);
  assert.equal(param(evaluateCompliance(input, custom), "voltage").n1, 0);
});

Deno.test("evaluateCompliance() counts +10.01 % outside both bands, which fails the week", () => {
  const input = compliantWeek();
  setSlots(input.u[2]!, 100, 1, 230 * 1.1001);
  const voltage = param(evaluateCompliance(input), "voltage");
  assert.deepEqual([voltage.n1, voltage.n2, voltage.passed], [1, 1, false]);
  assert.equal(voltage.worstPhase, "L3");
});

Deno.test("evaluateCompliance() counts exactly -15 % in N1 only and -15.01 % in N2", () => {
  const input = compliantWeek();
  setSlots(input.u[0]!, 10, 1, 195.5); // 230 V - 15 %
  let voltage = param(evaluateCompliance(input), "voltage");
  assert.deepEqual([voltage.n1, voltage.n2, voltage.passed], [1, 0, true]);
  setSlots(input.u[0]!, 11, 1, 230 * 0.8499);
  voltage = param(evaluateCompliance(input), "voltage");
  assert.deepEqual([voltage.n1, voltage.n2, voltage.passed], [2, 1, false]);
});

Deno.test("evaluateCompliance() passes 5 % of the week outside +/-10 % and fails one slot more", () => {
  const input = compliantWeek();
  setSlots(input.flagged, 0, 8, 1); // N = 1,000, so 50 slots are exactly 5 %
  setSlots(input.u[0]!, 100, 50, 200); // -13 %: outside +/-10 %, inside -15 %
  let voltage = param(evaluateCompliance(input), "voltage");
  assert.deepEqual([voltage.n, voltage.n1, voltage.ratioN1, voltage.passed], [
    1000,
    50,
    0.05,
    true,
  ]);
  setSlots(input.u[0]!, 150, 1, 200);
  voltage = param(evaluateCompliance(input), "voltage");
  assert.deepEqual([voltage.n1, voltage.passed], [51, false]);
});

Deno.test("evaluateCompliance() fails a week with one slot below -15 % though N1 is small", () => {
  const input = compliantWeek();
  setSlots(input.u[1]!, 500, 1, 190);
  const result = evaluateCompliance(input);
  const voltage = param(result, "voltage");
  assert.deepEqual([voltage.n1, voltage.n2, voltage.passed], [1, 1, false]);
  assert.ok(voltage.ratioN1! < 0.001);
  assert.equal(result.passed, false);
  assert.deepEqual(result.summary, { passed: 28, failed: 1, notEvaluable: 0 });
});

Deno.test("evaluateCompliance() leaves flagged slots out of N and counts NaN slots as missing", () => {
  const input = compliantWeek();
  setSlots(input.flagged, 200, 10, 1);
  setSlots(input.u[0]!, 200, 5, 150); // deep dip: flagged, so not counted in N1 or N2
  setSlots(input.u[0]!, 205, 2, NaN); // interruption without values: still flagged, not missing
  setSlots(input.u[0]!, 300, 20, NaN);
  setSlots(input.u[0]!, 400, 5, 200);
  const voltage = param(evaluateCompliance(input), "voltage");
  const l1 = voltage.phases![0]!;
  assert.deepEqual(
    [l1.phase, l1.n, l1.n1, l1.n2, l1.flagged, l1.missing],
    ["L1", 978, 5, 0, 10, 20],
  );
  assert.equal(l1.n + l1.flagged + l1.missing, 1008);
  assert.equal(evaluateCompliance(input).flaggedSlots, 10);
});

Deno.test("evaluateCompliance() reports voltage as not evaluable when every slot is missing", () => {
  const input = compliantWeek();
  for (const phase of input.u) phase.fill(NaN);
  const result = evaluateCompliance(input);
  const voltage = param(result, "voltage");
  assert.deepEqual([voltage.n, voltage.missing, voltage.ratioN1, voltage.passed], [
    0,
    1008,
    null,
    null,
  ]);
  assert.equal(result.passed, null);
  assert.deepEqual(result.summary, { passed: 28, failed: 0, notEvaluable: 1 });
});

Deno.test("evaluateCompliance() reports every parameter as not evaluable when all slots are flagged", () => {
  const input = compliantWeek();
  input.flagged.fill(1);
  const result = evaluateCompliance(input);
  assert.equal(result.passed, null);
  assert.deepEqual(result.summary, { passed: 0, failed: 0, notEvaluable: 29 });
  assert.equal(param(result, "flicker").flagged, 84);
});

Deno.test("evaluateCompliance() still fails a node when another parameter is not evaluable", () => {
  const input = compliantWeek();
  input.thd.forEach((phase) => phase.fill(NaN));
  setSlots(input.u[0]!, 0, 1, 150);
  assert.equal(evaluateCompliance(input).passed, false);
});

Deno.test("evaluateCompliance() lets the worst phase decide and returns the counts of each phase", () => {
  const input = compliantWeek();
  setSlots(input.u[0]!, 0, 20, 200);
  setSlots(input.u[1]!, 0, 60, 200);
  setSlots(input.u[2]!, 0, 5, NaN);
  const voltage = param(evaluateCompliance(input), "voltage");
  assert.equal(voltage.worstPhase, "L2");
  assert.deepEqual([voltage.n1, voltage.passed], [60, false]);
  assert.deepEqual(
    voltage.phases!.map((p) => [p.phase, p.n, p.n1, p.missing, p.passed]),
    [["L1", 1008, 20, 0, true], ["L2", 1008, 60, 0, false], ["L3", 1003, 0, 5, true]],
  );
});

Deno.test("evaluateCompliance() makes a phase without any value the deciding one", () => {
  const input = compliantWeek();
  input.u[2]!.fill(NaN);
  const voltage = param(evaluateCompliance(input), "voltage");
  assert.deepEqual([voltage.worstPhase, voltage.passed], ["L3", null]);
});

Deno.test("evaluateCompliance() evaluates a single-phase node", () => {
  const input = compliantWeek({ phases: 1 });
  setSlots(input.u[0]!, 0, 1, 260);
  const voltage = param(evaluateCompliance(input), "voltage");
  assert.deepEqual(voltage.phases!.map((p) => p.phase), ["L1"]);
  assert.equal(voltage.passed, false);
});

Deno.test("evaluateCompliance() applies a custom limit set that narrows voltage to +/-8 %", () => {
  const custom = deriveLimitSet({
    name: "Site +/-8 %",
    voltage: { band: { lowerPct: -8, upperPct: 8 } },
  });
  const input = compliantWeek();
  setSlots(input.u[0]!, 0, 1, 248.4); // exactly +8 %: inside
  setSlots(input.u[0]!, 1, 60, 250); // +8.7 %: outside +/-8 %, inside +/-10 %
  assert.equal(param(evaluateCompliance(input), "voltage").passed, true);
  const result = evaluateCompliance(input, custom);
  const voltage = param(result, "voltage");
  assert.deepEqual([voltage.n1, voltage.n2, voltage.passed], [60, 0, false]);
  assert.equal(result.limitSet, "Site +/-8 %");
});
