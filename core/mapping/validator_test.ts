import assert from "node:assert/strict";
import fc from "fast-check";
import {
  MAPPING_LIMITS,
  type MappingSample,
  type MappingVerdict,
  validateMapping,
} from "./validator.ts";
import { type ProbeRow, samplesForMapping } from "./probes.ts";

const RAD = Math.PI / 180;
/** Voltage angle of L1, L2, L3 (positive sequence). */
const ALPHA = [0, -120, 120];

interface Wiring {
  /** Conductor (0..2) whose current probe k carries. */
  source: readonly [number, number, number];
  /** -1 where the coil is reversed. */
  polarity?: readonly [number, number, number];
}

/**
 * Samples from phasors: conductor j carries I_j lagging U_j by the load angle; the cell pairs
 * U_k with the probe current of phase k and reports P, Q of that pair (what the device does).
 */
function samples(
  wiring: Wiring,
  opts: { phi?: number; amps?: readonly number[]; n?: number; jitter?: number; pfOnly?: boolean } =
    {},
): MappingSample[] {
  const { phi = 15, amps = [80, 70, 90], n = 30, jitter = 3, pfOnly = false } = opts;
  return Array.from({ length: n }, (_, t) => ({
    ts: t * 20_000,
    phases: [0, 1, 2].map((k) => {
      const j = wiring.source[k]!;
      const sign = wiring.polarity?.[k] ?? 1;
      const wobble = jitter * Math.sin(t * 1.7 + k);
      const currentAngle = ALPHA[j]! - phi - wobble + (sign < 0 ? 180 : 0);
      const theta = (ALPHA[k]! - currentAngle) * RAD;
      const i = amps[j]!;
      const s = 230 * i / 1000;
      return pfOnly
        ? { i, pf: Math.cos(theta) }
        : { i, p: s * Math.cos(theta), q: s * Math.sin(theta) };
    }),
  }));
}

const WIRINGS: Record<string, Wiring> = {
  CORRECT: { source: [0, 1, 2] },
  SHIFT_RIGHT: { source: [1, 2, 0] },
  SHIFT_LEFT: { source: [2, 0, 1] },
  INVERT_L2_L3: { source: [0, 2, 1] },
  INVERT_L1_L3: { source: [2, 1, 0] },
  INVERT_L1_L2: { source: [1, 0, 2] },
  COIL_DIRECTION: { source: [0, 1, 2], polarity: [-1, -1, -1] },
};

for (const [verdict, wiring] of Object.entries(WIRINGS)) {
  Deno.test(`a ${verdict} wiring is found with certainty`, () => {
    const r = validateMapping(samples(wiring));
    assert.equal(r.verdict, verdict);
    assert.equal(r.certainty, "CERTAIN");
    assert.equal(r.moreMeasurements, 0);
  });
}

Deno.test("one reversed coil is a coil-direction verdict", () => {
  for (const polarity of [[1, -1, 1], [-1, 1, 1], [1, 1, -1]] as const) {
    const r = validateMapping(samples({ source: [0, 1, 2], polarity }));
    assert.deepEqual([r.verdict, r.certainty], ["COIL_DIRECTION", "CERTAIN"]);
  }
});

Deno.test("export (negative power flow) reads as coil direction or power flow negative", () => {
  const r = validateMapping(samples(WIRINGS.CORRECT!, { phi: 180 }));
  assert.equal(r.verdict, "COIL_DIRECTION");
});

Deno.test("the demo simulator's swapped cell (probe k carries conductor [2,0,1][k]) is SHIFT_LEFT", () => {
  assert.equal(validateMapping(samples({ source: [2, 0, 1] })).verdict, "SHIFT_LEFT");
});

Deno.test("no sample at all is a timeout", () => {
  assert.deepEqual(
    [validateMapping([]).verdict, validateMapping([]).certainty],
    ["TIMEOUT", "NO_CONCLUSION"],
  );
});

Deno.test("all currents zero", () => {
  const r = validateMapping(samples(WIRINGS.CORRECT!, { amps: [0, 0.2, 0] }));
  assert.deepEqual([r.verdict, r.certainty], ["ALL_ZERO", "NO_CONCLUSION"]);
});

Deno.test("two phases with zero current", () => {
  const r = validateMapping(samples(WIRINGS.CORRECT!, { amps: [60, 0, 0.1] }));
  assert.deepEqual([r.verdict, r.certainty], ["TWO_PHASES_ZERO", "NO_CONCLUSION"]);
});

Deno.test("currents below 5 A do not count: not enough measurements, 20 more requested", () => {
  const r = validateMapping(samples(WIRINGS.CORRECT!, { amps: [4.9, 3, 2] }));
  assert.deepEqual([r.verdict, r.certainty, r.moreMeasurements], [
    "NOT_ENOUGH_MEASUREMENTS",
    "NO_CONCLUSION",
    20,
  ]);
  assert.deepEqual(r.phases.map((p) => p.reliable), [0, 0, 0]);
});

Deno.test("a few reliable samples give a likely verdict that is not certain", () => {
  const n = MAPPING_LIMITS.minReliableSamples - 1;
  const r = validateMapping(samples(WIRINGS.INVERT_L1_L2!, { n }));
  assert.deepEqual([r.verdict, r.certainty, r.likely, r.moreMeasurements], [
    "NOT_ENOUGH_MEASUREMENTS",
    "NOT_CERTAIN",
    "INVERT_L1_L2",
    20,
  ]);
  const enough = validateMapping(samples(WIRINGS.INVERT_L1_L2!, { n: n + 1 }));
  assert.equal(enough.verdict, "INVERT_L1_L2");
});

Deno.test("scattered angles cannot be verified", () => {
  const r = validateMapping(samples(WIRINGS.CORRECT!, { jitter: 170 }));
  assert.deepEqual([r.verdict, r.certainty], ["CANNOT_BE_VERIFIED", "NO_CONCLUSION"]);
});

Deno.test("angles that fit no wiring cannot be verified", () => {
  // 67 deg and -53 deg lie between the patterns (0, +-120, 180) plus any plausible load angle.
  for (const phi of [67, -53]) {
    const r = validateMapping(samples(WIRINGS.CORRECT!, { phi, jitter: 0 }));
    assert.deepEqual([r.verdict, r.certainty], ["CANNOT_BE_VERIFIED", "NO_CONCLUSION"]);
  }
});

Deno.test("power factor alone (no sign of Q) finds the wiring but is never certain", () => {
  const r = validateMapping(samples(WIRINGS.CORRECT!, { pfOnly: true }));
  assert.deepEqual([r.verdict, r.certainty], ["CORRECT", "NOT_CERTAIN"]);
});

Deno.test("one zero phase of three: the two others decide, not certain", () => {
  const r = validateMapping(samples(WIRINGS.CORRECT!, { amps: [60, 0, 70] }));
  assert.deepEqual([r.verdict, r.certainty], ["CORRECT", "NOT_CERTAIN"]);
});

Deno.test("a single mapped phase (L1 only) is validated, never certain", () => {
  const one = samples(WIRINGS.CORRECT!).map((s) => ({ ...s, phases: [s.phases[0], null, null] }));
  const r = validateMapping(one);
  assert.deepEqual([r.verdict, r.certainty, r.phases.length], ["CORRECT", "NOT_CERTAIN", 1]);
});

const wiringArb = fc.constantFrom(...Object.entries(WIRINGS));
// Load angles where the patterns do not overlap (pf >= 0.97 capacitive .. 0.88 inductive).
const phiArb = fc.double({ min: -12, max: 27, noNaN: true });
const ampsArb = fc.tuple(
  fc.double({ min: 6, max: 900, noNaN: true }),
  fc.double({ min: 6, max: 900, noNaN: true }),
  fc.double({ min: 6, max: 900, noNaN: true }),
);

Deno.test("property: every wiring is found with certainty for any plausible load", () => {
  fc.assert(
    fc.property(wiringArb, phiArb, ampsArb, fc.integer({ min: 10, max: 60 }), (w, phi, amps, n) => {
      const r = validateMapping(samples(w[1], { phi, amps, n }));
      assert.equal(r.verdict, w[0]);
      assert.equal(r.certainty, "CERTAIN");
    }),
    { numRuns: 300 },
  );
});

Deno.test("property: a result never claims certainty from unreliable currents", () => {
  fc.assert(
    fc.property(
      wiringArb,
      fc.double({ min: -180, max: 180, noNaN: true }),
      fc.tuple(
        fc.double({ min: 0, max: 4.99, noNaN: true }),
        fc.double({ min: 0, max: 900, noNaN: true }),
        fc.double({ min: 0, max: 900, noNaN: true }),
      ),
      (w, phi, amps) => {
        const r = validateMapping(samples(w[1], { phi, amps }));
        assert.notEqual(r.certainty, "CERTAIN");
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("property: sample order does not change the result", () => {
  fc.assert(
    fc.property(wiringArb, phiArb, fc.integer(), (w, phi, seed) => {
      const list = samples(w[1], { phi });
      const shuffled = [...list].sort((a, b) =>
        ((a.ts * 31 + seed) % 7) - ((b.ts * 31 + seed) % 7)
      );
      const a = validateMapping(list), b = validateMapping(shuffled);
      assert.deepEqual([a.verdict, a.certainty], [b.verdict, b.certainty]);
    }),
  );
});

Deno.test("property: any wiring is at worst ambiguous, never a different certain verdict", () => {
  fc.assert(
    fc.property(wiringArb, fc.double({ min: -31, max: 45, noNaN: true }), (w, phi) => {
      const r = validateMapping(samples(w[1], { phi }));
      if (r.certainty === "CERTAIN") assert.equal(r.verdict as MappingVerdict, w[0]);
    }),
    { numRuns: 300 },
  );
});

Deno.test("probe data checked against a mapping: the fix of the demo's swapped cell is CORRECT", () => {
  // Probe k carries conductor [2,0,1][k]; the device pairs voltage input k with probe k.
  const phi = 12;
  const rows: ProbeRow[] = [];
  for (let t = 0; t < 20; t++) {
    for (let probe = 1; probe <= 3; probe++) {
      const j = [2, 0, 1][probe - 1]!;
      const theta = (ALPHA[probe - 1]! - (ALPHA[j]! - phi)) * RAD;
      rows.push({ ts: t * 20_000, probe, i: 50, p: Math.cos(theta), q: Math.sin(theta), pf: null });
    }
  }
  assert.equal(validateMapping(samplesForMapping(rows, [1, 2, 3])).verdict, "SHIFT_LEFT");
  // L1 is on probe 2, L2 on probe 3, L3 on probe 1: the mapping the verdict asks for.
  const fixed = validateMapping(samplesForMapping(rows, [2, 3, 1]));
  assert.deepEqual([fixed.verdict, fixed.certainty], ["CORRECT", "CERTAIN"]);
  assert.equal(validateMapping(samplesForMapping(rows, [1, null, null])).phases.length, 1);
});
