import assert from "node:assert/strict";
import { ComplianceError } from "./errors.ts";
import {
  deriveLimitSet,
  EN50160_LV,
  HARMONIC_ORDERS,
  type LimitSet,
  limitSetProblems,
  validateLimitSet,
} from "./limits.ts";

Deno.test("EN50160_LV holds the voltage, frequency and 95 % limits of EN 50160 LV", () => {
  assert.deepEqual(EN50160_LV.voltage, {
    band: { lowerPct: -10, upperPct: 10 },
    sharePct: 95,
    band100: { lowerPct: -15, upperPct: 10 },
  });
  assert.deepEqual(EN50160_LV.frequency, {
    band: { lowerPct: -1, upperPct: 1 },
    sharePct: 99.5,
    band100: { lowerPct: -6, upperPct: 4 },
  });
  assert.deepEqual(EN50160_LV.flicker, { max: 1, sharePct: 95 });
  assert.deepEqual(EN50160_LV.unbalance, { max: 2, sharePct: 95 });
  assert.deepEqual(EN50160_LV.thd, { max: 8, sharePct: 95 });
});

Deno.test("EN50160_LV holds the individual harmonic limits of orders 2..25", () => {
  const expected: Record<number, number> = {
    2: 2.0,
    3: 5.0,
    4: 1.0,
    5: 6.0,
    7: 5.0,
    9: 1.5,
    11: 3.5,
    13: 3.0,
    15: 0.5,
    17: 2.0,
    19: 1.5,
    21: 0.5,
    23: 1.5,
    25: 1.5,
  };
  for (let order = 6; order <= 24; order += 2) expected[order] = 0.5;
  assert.deepEqual(HARMONIC_ORDERS, Array.from({ length: 24 }, (_, i) => i + 2));
  assert.deepEqual({ ...EN50160_LV.harmonics.maxPct }, expected);
  assert.equal(EN50160_LV.harmonics.sharePct, 95);
});

Deno.test("EN50160_LV cannot be changed by a caller", () => {
  assert.throws(() => {
    (EN50160_LV.voltage.band as { upperPct: number }).upperPct = 12;
  }, TypeError);
  assert.equal(EN50160_LV.voltage.band.upperPct, 10);
});

Deno.test("validateLimitSet() accepts EN50160_LV and returns it", () => {
  assert.equal(validateLimitSet(EN50160_LV), EN50160_LV);
  assert.deepEqual(limitSetProblems(EN50160_LV), []);
});

Deno.test("validateLimitSet() names every problem of a broken set with code 522", () => {
  const broken = {
    ...EN50160_LV,
    name: "broken",
    voltage: { ...EN50160_LV.voltage, band: { lowerPct: -10, upperPct: NaN } },
    flicker: { max: 1, sharePct: 0 },
    harmonics: { ...EN50160_LV.harmonics, maxPct: { ...EN50160_LV.harmonics.maxPct, 5: -6 } },
  } as LimitSet;
  assert.throws(
    () => validateLimitSet(broken),
    (error: unknown) => {
      assert.ok(error instanceof ComplianceError);
      assert.equal(error.code, 522);
      assert.deepEqual(error.toBody(), { code: 522, key: "pq.complianceLimitsError", params: {} });
      assert.equal(
        error.message,
        'Invalid limit set "broken": voltage.band.upperPct must be a finite number; ' +
          "flicker.sharePct must be above 0 and at most 100; harmonics.maxPct.5 must be above 0",
      );
      return true;
    },
  );
});

Deno.test("validateLimitSet() refuses a 100 % band narrower than the 95 % band", () => {
  const problems = limitSetProblems({
    ...EN50160_LV,
    voltage: { ...EN50160_LV.voltage, band: { lowerPct: -10, upperPct: 12 } },
  });
  assert.deepEqual(problems, ["voltage.band100 must contain voltage.band"]);
});

Deno.test("validateLimitSet() refuses a band that leaves out the nominal value", () => {
  const problems = limitSetProblems({
    ...EN50160_LV,
    frequency: { ...EN50160_LV.frequency, band: { lowerPct: 0.5, upperPct: 1 } },
  });
  assert.deepEqual(problems, [
    "frequency.band must contain the nominal value (lowerPct <= 0 <= upperPct)",
  ]);
});

Deno.test("validateLimitSet() reports a missing harmonic order of a hand-built set", () => {
  const { 25: _dropped, ...maxPct } = EN50160_LV.harmonics.maxPct;
  const problems = limitSetProblems({
    ...EN50160_LV,
    harmonics: { sharePct: 95, maxPct } as LimitSet["harmonics"],
  });
  assert.deepEqual(problems, ["harmonics.maxPct.25 must be a finite number"]);
});

Deno.test("deriveLimitSet() overrides single values and keeps the rest of EN 50160", () => {
  const custom = deriveLimitSet({
    voltage: { band: { lowerPct: -8, upperPct: 8 } },
    unbalance: { max: 3 },
    harmonics: { maxPct: { 3: 4 } },
  });
  assert.equal(custom.name, "EN 50160 LV (custom)");
  assert.deepEqual(custom.voltage.band, { lowerPct: -8, upperPct: 8 });
  assert.deepEqual(custom.voltage.band100, EN50160_LV.voltage.band100);
  assert.deepEqual(custom.unbalance, { max: 3, sharePct: 95 });
  assert.equal(custom.harmonics.maxPct[3], 4);
  assert.equal(custom.harmonics.maxPct[5], 6);
  assert.equal(EN50160_LV.harmonics.maxPct[3], 5);
  assert.ok(Object.isFrozen(custom.voltage.band));
});

Deno.test("deriveLimitSet() expresses the non-synchronous island limits of EN 50160", () => {
  const island = deriveLimitSet({
    name: "EN 50160 LV island",
    frequency: {
      band: { lowerPct: -2, upperPct: 2 },
      sharePct: 95,
      band100: { lowerPct: -15, upperPct: 15 },
    },
  });
  assert.deepEqual(island.frequency.band100, { lowerPct: -15, upperPct: 15 });
});

Deno.test("deriveLimitSet() refuses overrides that break the set", () => {
  assert.throws(
    () => deriveLimitSet({ voltage: { band: { upperPct: 20 } } }),
    /Invalid limit set "EN 50160 LV \(custom\)": voltage\.band100 must contain voltage\.band/,
  );
});
