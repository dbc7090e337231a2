/**
 * The tolerance curves of the events' magnitude-duration plot (ITIC / CBEMA and SEMI F47) and
 * whether an event lies inside one, shared by the server's curve filter and the web app's plot.
 * Pure: no imports.
 */
// Equipment tolerance curves of the magnitude-duration plot (per unit, seconds), from GPA's
// PQDigest: ITIC (CBEMA's successor, 120 V IT equipment) and SEMI F47 (semiconductor tools, dips
// only). A point ON a curve counts as inside (the equipment is meant to ride through it); a
// vertical step belongs to the shorter duration (ITIC allows 0.7 pu up to and including 0.5 s).
// Up to a lower curve's first point nothing is asked; past its last point its last level holds.

/** The curves a list can filter on. */
export const CURVES = ["ITIC", "SEMI_F47"] as const;
export type Curve = (typeof CURVES)[number];

/** A point of a curve: magnitude in per unit, duration in seconds. */
export interface CurvePoint {
  pu: number;
  s: number;
}

/** ITIC upper (overvoltage) curve. */
export const ITIC_UPPER: readonly CurvePoint[] = [
  { pu: 5, s: 0.0001667 },
  { pu: 2, s: 0.001 },
  { pu: 1.4, s: 0.003 },
  { pu: 1.2, s: 0.003 },
  { pu: 1.2, s: 0.5 },
  { pu: 1.1, s: 0.5 },
  { pu: 1.1, s: 100 },
];

/** ITIC lower (undervoltage) curve. */
export const ITIC_LOWER: readonly CurvePoint[] = [
  { pu: 0, s: 0.02 },
  { pu: 0.7, s: 0.02 },
  { pu: 0.7, s: 0.5 },
  { pu: 0.8, s: 0.5 },
  { pu: 0.8, s: 10 },
  { pu: 0.9, s: 10 },
  { pu: 0.9, s: 100 },
];

/** SEMI F47 (dips only; defined from 50 ms to 1 s). */
export const SEMI_F47: readonly CurvePoint[] = [
  { pu: 0.5, s: 0.05 },
  { pu: 0.5, s: 0.2 },
  { pu: 0.7, s: 0.2 },
  { pu: 0.7, s: 0.5 },
  { pu: 0.8, s: 0.5 },
  { pu: 0.8, s: 1 },
];

/** Lowest magnitude a lower curve tolerates at `s` (0 before the curve starts). */
function lowerLimit(curve: readonly CurvePoint[], s: number): number {
  // Up to the curve's first point (ITIC's vertical edge at 20 ms included) nothing is asked.
  if (s <= (curve[0]?.s ?? 0)) return 0;
  let limit = 0;
  for (let k = 0; k + 1 < curve.length; k++) {
    const a = curve[k]!;
    const b = curve[k + 1]!;
    // Horizontal segments carry the limit; the first one covering `s` wins (steps go to the
    // shorter duration). Past the last point the last level holds.
    if (a.pu === b.pu && a.s !== b.s && s >= a.s && s <= b.s) return a.pu;
    if (s > b.s) limit = b.pu;
  }
  return limit;
}

/** Highest magnitude ITIC's upper curve tolerates at `s` (log-linear between its points). */
function upperLimit(s: number): number {
  const first = ITIC_UPPER[0]!;
  if (s <= first.s) return first.pu;
  for (let k = 0; k + 1 < ITIC_UPPER.length; k++) {
    const a = ITIC_UPPER[k]!;
    const b = ITIC_UPPER[k + 1]!;
    if (a.s === b.s || s > b.s) continue;
    if (a.pu === b.pu) return a.pu;
    const f = (Math.log(s) - Math.log(a.s)) / (Math.log(b.s) - Math.log(a.s));
    return a.pu + f * (b.pu - a.pu);
  }
  return ITIC_UPPER[ITIC_UPPER.length - 1]!.pu;
}

/**
 * Whether an event of magnitude `pu` (residual voltage of a dip or interruption, peak of a
 * swell) lasting `s` seconds lies inside the curve's tolerance region. SEMI F47 says nothing
 * about swells: they count as inside it.
 */
export function insideCurve(curve: Curve, pu: number, s: number): boolean {
  if (pu >= 1) return curve === "SEMI_F47" ? true : pu <= upperLimit(s);
  return pu >= lowerLimit(curve === "ITIC" ? ITIC_LOWER : SEMI_F47, s);
}
