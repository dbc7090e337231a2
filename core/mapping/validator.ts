/**
 * Line-mapping validation from measured 20-s data (spec 4 "Line mapping validation", spec 9).
 *
 * Physics. The cell pairs the voltage of phase k with the current of the probe mapped to k and
 * reports P and Q of that pair, so the pair's angle is theta_k = atan2(Q_k, P_k) = angle(U_k) -
 * angle(I). If the probe really carries the current of phase j, and that current lags its own
 * voltage by the load angle phi, then (positive sequence, U_k at -120 deg (k-1))
 *
 *     theta_k = phi + 120 deg * (j - k)          (mod 360)
 *
 * and a reversed coil (or power flowing the other way) adds 180 deg. Each verdict is therefore an
 * offset pattern over L1..L3 (table HYPOTHESES): the mapping is correct when every residual
 * theta_k - offset_k is a plausible load angle. A cyclic shift turns every phase by the same
 * +-120 deg, a swapped pair turns two phases by +120 and -120 deg and leaves the third, a reversed
 * coil turns a phase by 180 deg.
 *
 * Conventions. SHIFT_RIGHT: the probe mapped to Lk carries L(k+1) (the mapping must move one
 * phase to the right: L1->L2, L2->L3, L3->L1); SHIFT_LEFT the other way. INVERT_Lx_Ly: the probes
 * of Lx and Ly are swapped. The neutral (probe on N) carries no voltage and is not validated.
 *
 * Reliability. Currents below 5 A are unreliable (spec 9) and do not count; below 0.5 A a phase
 * counts as carrying no current at all. A phase needs MIN_RELIABLE_SAMPLES reliable samples;
 * otherwise the answer is NOT_ENOUGH_MEASUREMENTS and 20 more measurements are requested.
 * Pure: no I/O, no clock.
 */

/** Values of one phase in one 20-s sample; p/q in any unit (only their angle counts). */
export interface PhaseSample {
  /** RMS current, A. */
  i: number;
  /** Active power (signed; negative = export). */
  p?: number | undefined;
  /** Reactive power (signed; positive = inductive). */
  q?: number | undefined;
  /** Power factor -1..1 (sign = sign of P); used when P or Q is missing. */
  pf?: number | undefined;
}

/** One 20-s sample: L1, L2, L3 as the current mapping assigns them; null where unmapped. */
export interface MappingSample {
  ts: number;
  phases: readonly (PhaseSample | null | undefined)[];
}

export const VERDICTS = [
  "CORRECT",
  "CANNOT_BE_VERIFIED",
  "SHIFT_RIGHT",
  "SHIFT_LEFT",
  "INVERT_L2_L3",
  "INVERT_L1_L3",
  "INVERT_L1_L2",
  "COIL_DIRECTION",
  "TWO_PHASES_ZERO",
  "NOT_ENOUGH_MEASUREMENTS",
  "ALL_ZERO",
  "TIMEOUT",
] as const;
export type MappingVerdict = (typeof VERDICTS)[number];
export type MappingCertainty = "CERTAIN" | "NOT_CERTAIN" | "NO_CONCLUSION";

/** What the validation found. */
export interface MappingValidation {
  verdict: MappingVerdict;
  certainty: MappingCertainty;
  /** Further measurements to collect before asking again (20 when not enough, else 0). */
  moreMeasurements: number;
  /** With NOT_ENOUGH_MEASUREMENTS: what the few reliable samples suggest, if anything. */
  likely: MappingVerdict | null;
  /** Per mapped phase L1..L3: reliable sample count and mean angle (deg), for display. */
  phases: { reliable: number; angleDeg: number | null; zero: boolean }[];
}

/** Every constant of the validator, in one table. */
export const MAPPING_LIMITS = {
  /** Spec 9: below 5 A a current is unreliable. */
  reliableCurrentA: 5,
  /** Below this a phase counts as carrying no current (probe noise floor). */
  zeroCurrentA: 0.5,
  /** Reliable samples a phase needs: 10 x 20 s = 200 s of steady load. */
  minReliableSamples: 10,
  /** Spec 9: 20 more measurements are requested when the result is uncertain. */
  moreMeasurements: 20,
  /** Plausible load angles (deg): pf >= 0.7 inductive, >= 0.85 capacitive. */
  loadAngleMinDeg: -32,
  loadAngleMaxDeg: 46,
  /** Typical load angles (deg): a certain verdict needs every phase in here. */
  typicalMinDeg: -20,
  typicalMaxDeg: 40,
  /** Outside the plausible window by at most this much (deg): a fit, but not certain. */
  toleranceDeg: 15,
  /** Mean resultant length below which a phase's angles are too scattered to be certain. */
  steadyResultant: 0.9,
  /** ... and below which they say nothing. */
  scatteredResultant: 0.5,
} as const;

type Offsets = readonly [number, number, number];
/** Offset patterns (deg) over L1..L3, in tie-break order. */
const HYPOTHESES: readonly { verdict: MappingVerdict; offsets: Offsets }[] = [
  { verdict: "CORRECT", offsets: [0, 0, 0] },
  { verdict: "COIL_DIRECTION", offsets: [180, 180, 180] },
  { verdict: "SHIFT_RIGHT", offsets: [120, 120, 120] },
  { verdict: "SHIFT_LEFT", offsets: [-120, -120, -120] },
  { verdict: "INVERT_L2_L3", offsets: [0, 120, -120] },
  { verdict: "INVERT_L1_L3", offsets: [-120, 0, 120] },
  { verdict: "INVERT_L1_L2", offsets: [120, -120, 0] },
  // A single reversed coil, or two: the phases are right, the direction is not.
  ...([[180, 0, 0], [0, 180, 0], [0, 0, 180], [180, 180, 0], [180, 0, 180], [0, 180, 180]] as const)
    .map((offsets) => ({ verdict: "COIL_DIRECTION" as const, offsets })),
];

const DEG = 180 / Math.PI;
const wrap = (deg: number) => {
  const w = ((deg + 180) % 360 + 360) % 360 - 180;
  return w === -180 ? 180 : w;
};

interface PhaseStats {
  zero: boolean;
  reliable: number;
  /** Mean angle (deg) or null; `signKnown` false when only |angle| is known (pf alone). */
  angle: number | null;
  signKnown: boolean;
  resultant: number;
}

/** The angle of one sample (deg), or null when neither P/Q nor pf is usable. */
function sampleAngle(s: PhaseSample): { deg: number; signKnown: boolean } | null {
  if (Number.isFinite(s.p) && Number.isFinite(s.q) && (s.p !== 0 || s.q !== 0)) {
    return { deg: Math.atan2(s.q!, s.p!) * DEG, signKnown: true };
  }
  if (Number.isFinite(s.pf)) {
    return { deg: Math.acos(Math.max(-1, Math.min(1, s.pf!))) * DEG, signKnown: false };
  }
  return null;
}

function phaseStats(samples: readonly MappingSample[], k: number): PhaseStats | null {
  let mapped = false;
  let zero = true;
  let x = 0, y = 0, n = 0, signKnown = true;
  for (const sample of samples) {
    const s = sample.phases[k];
    if (!s) continue;
    mapped = true;
    if (!(s.i < MAPPING_LIMITS.zeroCurrentA)) zero = false;
    if (!(s.i >= MAPPING_LIMITS.reliableCurrentA)) continue;
    const a = sampleAngle(s);
    if (!a) continue;
    signKnown &&= a.signKnown;
    x += Math.cos(a.deg / DEG);
    y += Math.sin(a.deg / DEG);
    n++;
  }
  if (!mapped) return null;
  return {
    zero,
    reliable: n,
    angle: n ? Math.atan2(y, x) * DEG : null,
    signKnown,
    resultant: n ? Math.hypot(x, y) / n : 0,
  };
}

/** How far (deg) a residual lies outside [lo, hi] (0 inside). */
const outside = (r: number, lo: number, hi: number) => (r < lo ? lo - r : r > hi ? r - hi : 0);

interface Misfit {
  /** Outside the plausible window (deg). */
  out: number;
  /** Outside the typical window (deg). */
  atypical: number;
  /** Distance from the middle of the plausible window (deg), to rank equal fits. */
  centre: number;
}

/** Misfit of one phase against an offset: the better sign when only |angle| is known. */
function misfit(stats: PhaseStats, offset: number): Misfit {
  const L = MAPPING_LIMITS;
  const centre = (L.loadAngleMinDeg + L.loadAngleMaxDeg) / 2;
  const candidates = stats.signKnown ? [stats.angle!] : [stats.angle!, -stats.angle!];
  let best: Misfit = { out: Infinity, atypical: Infinity, centre: Infinity };
  for (const angle of candidates) {
    const r = wrap(angle - offset);
    const fit = {
      out: outside(r, L.loadAngleMinDeg, L.loadAngleMaxDeg),
      atypical: outside(r, L.typicalMinDeg, L.typicalMaxDeg),
      centre: Math.abs(r - centre),
    };
    if (fit.out < best.out || (fit.out === best.out && fit.centre < best.centre)) best = fit;
  }
  return best;
}

/**
 * The best hypothesis over the live phases. It is unambiguous when it explains every phase with
 * a typical load angle and no other verdict explains them with a plausible one.
 */
function bestHypothesis(
  live: readonly { k: number; stats: PhaseStats }[],
): { verdict: MappingVerdict; out: number; unique: boolean } {
  const ranked = HYPOTHESES.map((h, order) => {
    let out = 0, atypical = 0, centre = 0;
    for (const { k, stats } of live) {
      const m = misfit(stats, h.offsets[k]!);
      out = Math.max(out, m.out);
      atypical = Math.max(atypical, m.atypical);
      centre += m.centre;
    }
    return { verdict: h.verdict, out, atypical, centre, order };
  }).sort((a, b) => a.out - b.out || a.centre - b.centre || a.order - b.order);
  const best = ranked[0]!;
  const rival = ranked.find((r) => r.verdict !== best.verdict);
  const unique = best.atypical === 0 && !(rival && rival.out === 0);
  return { verdict: best.verdict, out: best.out, unique };
}

/** Validates a mapping from the samples measured with it (any order, any count). */
export function validateMapping(samples: readonly MappingSample[]): MappingValidation {
  const stats = [0, 1, 2].map((k) => phaseStats(samples, k));
  const phases = stats.flatMap((s) =>
    s
      ? [{ reliable: s.reliable, angleDeg: s.angle === null ? null : round(s.angle), zero: s.zero }]
      : []
  );
  const result = (
    verdict: MappingVerdict,
    certainty: MappingCertainty,
    likely: MappingVerdict | null = null,
  ): MappingValidation => ({
    verdict,
    certainty,
    moreMeasurements: verdict === "NOT_ENOUGH_MEASUREMENTS" ? MAPPING_LIMITS.moreMeasurements : 0,
    likely,
    phases,
  });
  const mapped = stats.flatMap((s, k) => (s ? [{ k, stats: s }] : []));
  // No sample of any mapped phase arrived within the validation window.
  if (!mapped.length) return result("TIMEOUT", "NO_CONCLUSION");
  const zeros = mapped.filter((m) => m.stats.zero).length;
  if (zeros === mapped.length) return result("ALL_ZERO", "NO_CONCLUSION");
  if (mapped.length >= 3 && zeros === 2) return result("TWO_PHASES_ZERO", "NO_CONCLUSION");
  const live = mapped.filter((m) => !m.stats.zero);
  const measured = live.filter((m) => m.stats.reliable > 0);
  if (live.some((m) => m.stats.reliable < MAPPING_LIMITS.minReliableSamples)) {
    if (measured.length < live.length) return result("NOT_ENOUGH_MEASUREMENTS", "NO_CONCLUSION");
    const guess = bestHypothesis(measured);
    return guess.out <= MAPPING_LIMITS.toleranceDeg
      ? result("NOT_ENOUGH_MEASUREMENTS", "NOT_CERTAIN", guess.verdict)
      : result("NOT_ENOUGH_MEASUREMENTS", "NO_CONCLUSION");
  }
  if (live.some((m) => m.stats.resultant < MAPPING_LIMITS.scatteredResultant)) {
    return result("CANNOT_BE_VERIFIED", "NO_CONCLUSION");
  }
  const best = bestHypothesis(live);
  if (best.out > MAPPING_LIMITS.toleranceDeg) return result("CANNOT_BE_VERIFIED", "NO_CONCLUSION");
  const steady = live.every((m) =>
    m.stats.resultant >= MAPPING_LIMITS.steadyResultant && m.stats.signKnown
  );
  // One live phase cannot tell every pattern apart: a single match there is not certain.
  const certain = best.unique && steady && live.length >= 2 && zeros === 0;
  return result(best.verdict, certain ? "CERTAIN" : "NOT_CERTAIN");
}

const round = (deg: number) => Math.round(deg * 10) / 10;
