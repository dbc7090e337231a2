/**
 * The EN 50160 limits for public low-voltage networks: the one table the engine reads, the
 * `LimitSet` type that custom reports fill with their own values, and its validation.
 *
 * Sources cross-checked: EN 50160:2010 clause 4 (LV), the product spec (section 9) and meter
 * vendors' EN 50160 notes (docs: /work/shared/guide/domain.md).
 */
import { ComplianceError } from "./errors.ts";

/** Harmonic orders the product evaluates individually (spec section 9: up to the 25th). */
export const HARMONIC_ORDERS = [
  2,
  3,
  4,
  5,
  6,
  7,
  8,
  9,
  10,
  11,
  12,
  13,
  14,
  15,
  16,
  17,
  18,
  19,
  20,
  21,
  22,
  23,
  24,
  25,
] as const;

/** One of the harmonic orders 2..25. */
export type HarmonicOrder = typeof HARMONIC_ORDERS[number];

/** A band of allowed deviation from the nominal value, in % of nominal (lower is negative). */
export interface DeviationBand {
  readonly lowerPct: number;
  readonly upperPct: number;
}

/** A limit that holds for `sharePct` % of the valid intervals and a wider one for all of them. */
export interface DeviationLimit {
  /** The band that must hold for `sharePct` % of the intervals (N1 counts the ones outside). */
  readonly band: DeviationBand;
  /** Percentage of valid intervals that must lie inside `band`, e.g. 95. */
  readonly sharePct: number;
  /** The band that must hold for 100 % of the intervals (N2 counts the ones outside). */
  readonly band100: DeviationBand;
}

/** An upper limit that holds for `sharePct` % of the valid intervals; nothing for 100 %. */
export interface MaximumLimit {
  readonly max: number;
  readonly sharePct: number;
}

/**
 * A complete set of compliance limits. EN50160_LV is the standard's; a custom report passes its
 * own (see `deriveLimitSet`), so every value is data, never a constant in the evaluation code.
 */
export interface LimitSet {
  readonly name: string;
  /** Supply voltage variations, 10-min RMS, deviation from Un (phase-neutral). */
  readonly voltage: DeviationLimit;
  /** Power frequency, 10-s means, deviation from the nominal 50 or 60 Hz. */
  readonly frequency: DeviationLimit;
  /** Long-term flicker severity Plt (2-h values). */
  readonly flicker: MaximumLimit;
  /** Negative/positive sequence ratio, %, 10-min values. */
  readonly unbalance: MaximumLimit;
  /** Total harmonic distortion of the voltage, %, 10-min values. */
  readonly thd: MaximumLimit;
  /** Individual harmonic voltages, % of the fundamental, 10-min values. */
  readonly harmonics: {
    readonly maxPct: Readonly<Record<HarmonicOrder, number>>;
    readonly sharePct: number;
  };
}

/** EN 50160 limits for public LV networks (interconnected systems), evaluated over one week. */
export const EN50160_LV: LimitSet = deepFreeze({
  name: "EN 50160 LV",
  voltage: {
    band: { lowerPct: -10, upperPct: 10 },
    sharePct: 95,
    band100: { lowerPct: -15, upperPct: 10 },
  },
  // The standard states 99.5 % "of a year"; the product evaluates it per week like the rest.
  frequency: {
    band: { lowerPct: -1, upperPct: 1 },
    sharePct: 99.5,
    band100: { lowerPct: -6, upperPct: 4 },
  },
  flicker: { max: 1, sharePct: 95 },
  unbalance: { max: 2, sharePct: 95 },
  thd: { max: 8, sharePct: 95 },
  harmonics: {
    maxPct: {
      2: 2.0,
      3: 5.0,
      4: 1.0,
      5: 6.0,
      6: 0.5,
      7: 5.0,
      8: 0.5,
      9: 1.5,
      10: 0.5,
      11: 3.5,
      12: 0.5,
      13: 3.0,
      14: 0.5,
      15: 0.5,
      16: 0.5,
      17: 2.0,
      18: 0.5,
      19: 1.5,
      20: 0.5,
      21: 0.5,
      22: 0.5,
      23: 1.5,
      24: 0.5,
      25: 1.5,
    },
    sharePct: 95,
  },
});

/** What a custom report may override: any value, at any depth, harmonics order by order. */
export interface LimitOverrides {
  readonly name?: string;
  readonly voltage?: DeviationLimitOverrides;
  readonly frequency?: DeviationLimitOverrides;
  readonly flicker?: Partial<MaximumLimit>;
  readonly unbalance?: Partial<MaximumLimit>;
  readonly thd?: Partial<MaximumLimit>;
  readonly harmonics?: {
    readonly maxPct?: Partial<Readonly<Record<HarmonicOrder, number>>>;
    readonly sharePct?: number;
  };
}

/** Overrides of one deviation limit. */
export interface DeviationLimitOverrides {
  readonly band?: Partial<DeviationBand>;
  readonly sharePct?: number;
  readonly band100?: Partial<DeviationBand>;
}

/**
 * Builds a custom limit set: `base` (EN 50160 LV by default) with `overrides` applied, validated.
 * Throws `ComplianceError` (522) listing every problem of the result.
 */
export function deriveLimitSet(overrides: LimitOverrides, base: LimitSet = EN50160_LV): LimitSet {
  const merged: LimitSet = {
    name: overrides.name ?? `${base.name} (custom)`,
    voltage: mergeDeviation(base.voltage, overrides.voltage),
    frequency: mergeDeviation(base.frequency, overrides.frequency),
    flicker: { ...base.flicker, ...overrides.flicker },
    unbalance: { ...base.unbalance, ...overrides.unbalance },
    thd: { ...base.thd, ...overrides.thd },
    harmonics: {
      maxPct: { ...base.harmonics.maxPct, ...overrides.harmonics?.maxPct },
      sharePct: overrides.harmonics?.sharePct ?? base.harmonics.sharePct,
    },
  };
  return validateLimitSet(deepFreeze(merged));
}

/** Lists every problem of a limit set; an empty list means it is usable. */
export function limitSetProblems(limits: LimitSet): string[] {
  const problems: string[] = [];
  checkDeviation(problems, "voltage", limits.voltage);
  checkDeviation(problems, "frequency", limits.frequency);
  checkMaximum(problems, "flicker", limits.flicker);
  checkMaximum(problems, "unbalance", limits.unbalance);
  checkMaximum(problems, "thd", limits.thd);
  checkShare(problems, "harmonics.sharePct", limits.harmonics?.sharePct);
  for (const order of HARMONIC_ORDERS) {
    checkPositive(problems, `harmonics.maxPct.${order}`, limits.harmonics?.maxPct?.[order]);
  }
  return problems;
}

/**
 * Returns `limits` when usable, else throws `ComplianceError` (522) whose message names every
 * problem, e.g. `Invalid limit set "site A": voltage.band.upperPct must be a finite number`.
 */
export function validateLimitSet(limits: LimitSet): LimitSet {
  const problems = limitSetProblems(limits);
  if (problems.length > 0) {
    throw new ComplianceError(`Invalid limit set "${limits.name}"`, problems);
  }
  return limits;
}

function mergeDeviation(base: DeviationLimit, over: DeviationLimitOverrides | undefined) {
  return {
    band: { ...base.band, ...over?.band },
    sharePct: over?.sharePct ?? base.sharePct,
    band100: { ...base.band100, ...over?.band100 },
  };
}

function checkDeviation(problems: string[], path: string, limit: DeviationLimit | undefined) {
  const band = limit?.band;
  const band100 = limit?.band100;
  const ok = [
    checkFinite(problems, `${path}.band.lowerPct`, band?.lowerPct),
    checkFinite(problems, `${path}.band.upperPct`, band?.upperPct),
    checkFinite(problems, `${path}.band100.lowerPct`, band100?.lowerPct),
    checkFinite(problems, `${path}.band100.upperPct`, band100?.upperPct),
  ].every(Boolean);
  checkShare(problems, `${path}.sharePct`, limit?.sharePct);
  if (!ok || !band || !band100) return;
  if (band.lowerPct > 0 || band.upperPct < 0) {
    problems.push(`${path}.band must contain the nominal value (lowerPct <= 0 <= upperPct)`);
  }
  if (band100.lowerPct > band.lowerPct || band100.upperPct < band.upperPct) {
    problems.push(`${path}.band100 must contain ${path}.band`);
  }
  if (band100.lowerPct <= -100) problems.push(`${path}.band100.lowerPct must be above -100`);
}

function checkMaximum(problems: string[], path: string, limit: MaximumLimit | undefined) {
  checkPositive(problems, `${path}.max`, limit?.max);
  checkShare(problems, `${path}.sharePct`, limit?.sharePct);
}

function checkFinite(problems: string[], path: string, value: unknown): boolean {
  if (typeof value === "number" && Number.isFinite(value)) return true;
  problems.push(`${path} must be a finite number`);
  return false;
}

function checkPositive(problems: string[], path: string, value: unknown) {
  if (checkFinite(problems, path, value) && (value as number) <= 0) {
    problems.push(`${path} must be above 0`);
  }
}

function checkShare(problems: string[], path: string, value: unknown) {
  if (!checkFinite(problems, path, value)) return;
  const share = value as number;
  if (share <= 0 || share > 100) problems.push(`${path} must be above 0 and at most 100`);
}

function deepFreeze<T extends object>(value: T): T {
  for (const inner of Object.values(value)) {
    if (typeof inner === "object" && inner !== null) deepFreeze(inner);
  }
  return Object.freeze(value);
}
