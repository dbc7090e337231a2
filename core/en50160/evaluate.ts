/**
 * EN 50160 compliance of one node over a period, from the 10-minute aggregates the caller reads:
 * per parameter N (valid intervals), N1 (outside the 95 % band), N2 (outside the 100 % band),
 * flagged and missing intervals, and a verdict. Pure: no database, no clock.
 */
import { checkInput } from "./_input.ts";
import { ComplianceError } from "./errors.ts";
import {
  collectFlagged,
  countAbove,
  countFrequency,
  countPlt,
  COUNTS,
  countSeries,
  lowerLimit,
  type Series,
  upperLimit,
} from "./_count.ts";
import {
  type DeviationLimit,
  EN50160_LV,
  HARMONIC_ORDERS,
  type HarmonicOrder,
  type LimitSet,
  validateLimitSet,
} from "./limits.ts";

export type { Series } from "./_count.ts";

/** A phase of a three-phase supply. */
export type Phase = "L1" | "L2" | "L3";

/** What a result is about: `h5` is the 5th harmonic. */
export type ParameterId =
  | "voltage"
  | "frequency"
  | "flicker"
  | "unbalance"
  | "thd"
  | `h${HarmonicOrder}`;

/**
 * The 10-minute series of one node, aligned on the UTC 10-minute slots from `period.from`
 * (slot i covers `from + i x 10 min`). NaN marks a missing value.
 */
export interface ComplianceInput {
  /** Half-open period `[from, to)` on the 10-minute grid, e.g. an `isoWeekRange()`. */
  readonly period: { readonly from: Date; readonly to: Date };
  /** Nominal phase-neutral voltage Un in V, e.g. 230. */
  readonly nominalVoltage: number;
  /** Nominal frequency in Hz. */
  readonly nominalFrequency: 50 | 60;
  /** 10-minute RMS voltage per phase (L1..L3; 1 to 3 phases), V. */
  readonly u: readonly Series[];
  /** Lowest and highest 10-s mean frequency within each slot, Hz. */
  readonly fMin: Series;
  readonly fMax: Series;
  /** Plt per phase, one value per 2-hour block from `from` (ceil(slots / 12) values). */
  readonly plt: readonly Series[];
  /** Negative/positive sequence voltage ratio per slot, %. */
  readonly unbalance: Series;
  /** Voltage THD per phase and slot, %. */
  readonly thd: readonly Series[];
  /**
   * Harmonic voltages, % of the fundamental: `h[order - 2][phase][slot]`, orders 2..25. Not
   * read (may be empty) when `recordCounts` is given.
   */
  readonly h: readonly (readonly Series[])[];
  /**
   * The harmonics and unbalance already counted by the caller, in place of `h` and `unbalance`
   * (a grid week from the counts kept as the slots close): see `RecordCounts`.
   */
  readonly recordCounts?: RecordCounts;
  /** 1 where a dip, swell or interruption touched the slot (IEC 61000-4-30 flagging), else 0. */
  readonly flagged: Uint8Array;
}

/**
 * Values counted over the period's unflagged slots: how many are present (`valid`) and how many
 * of those are above their limit (a value equal to its limit is inside, like the engine's own
 * count). Harmonics per order and phase at `[(order - 2) * phases + phase]` against `maxPct`,
 * unbalance at `unbalance[0]` (present) and `unbalance[1]` (above) against `unbalanceMax`. The
 * evaluation refuses counts made against other limits than its own.
 */
export interface RecordCounts {
  readonly maxPct: LimitSet["harmonics"]["maxPct"];
  readonly valid: Int32Array;
  readonly above: Int32Array;
  readonly unbalanceMax: number;
  readonly unbalance: Int32Array;
}

/**
 * Interval counts of a parameter. For every parameter `n + flagged + missing` is the number of
 * intervals of the period (10-minute slots; 2-hour blocks for flicker).
 */
export interface ComplianceCounts {
  /** Valid intervals: neither flagged nor missing. */
  readonly n: number;
  /** Valid intervals outside the main band (95 %; 99.5 % for frequency). */
  readonly n1: number;
  /** Valid intervals outside the 100 % band; null where the parameter has none. */
  readonly n2: number | null;
  /** Intervals left out because a dip, swell or interruption touched them. */
  readonly flagged: number;
  /** Intervals without a value (and not flagged). */
  readonly missing: number;
  /** n1 / n; null when n is 0. */
  readonly ratioN1: number | null;
  /** Compliant, not compliant, or null: not evaluable because no interval was valid. */
  readonly passed: boolean | null;
}

/** Counts of one phase. */
export interface PhaseCompliance extends ComplianceCounts {
  readonly phase: Phase;
}

/** Result of one parameter; for per-phase parameters the counts are the worst phase's. */
export interface ParameterCompliance extends ComplianceCounts {
  readonly parameter: ParameterId;
  /** The phase whose counts are shown; null for frequency and unbalance. */
  readonly worstPhase: Phase | null;
  /** Counts of every phase; null for frequency and unbalance. */
  readonly phases: readonly PhaseCompliance[] | null;
}

/** The compliance of one node over one period. */
export interface ComplianceResult {
  /** False if any parameter failed; else null if any was not evaluable; else true. */
  readonly passed: boolean | null;
  readonly limitSet: string;
  readonly slotCount: number;
  /** Slots flagged by a dip, swell or interruption. */
  readonly flaggedSlots: number;
  /** How many parameters passed, failed and could not be evaluated. */
  readonly summary: {
    readonly passed: number;
    readonly failed: number;
    readonly notEvaluable: number;
  };
  /** voltage, frequency, flicker, unbalance, thd, then h2..h25. */
  readonly parameters: readonly ParameterCompliance[];
}

const PHASES: readonly Phase[] = ["L1", "L2", "L3"];

/**
 * Evaluates one node against `limits` (EN 50160 LV by default). A parameter complies when
 * N1 / N is at most 100 % - share (5 % for a 95 % limit) and, where it has a 100 % band, N2 is 0.
 * Bands are closed, so a value exactly on a limit (253.0 V or 207.0 V for Un = 230 V) is inside:
 * EN 50160 asks for the 10-min values to be "within the range of Un +/- 10 %" and for Plt, THD
 * and harmonics to be "less than or equal to" their limits; a range includes its end points,
 * and counting them outside would fail supplies that meet the letter of the standard. Each phase
 * is counted on its own and the worst phase decides.
 *
 * Throws `PeriodError` (401-403) for an unusable period and `ComplianceError` (522) for an
 * invalid limit set or series of the wrong length.
 */
export function evaluateCompliance(
  input: ComplianceInput,
  limits: LimitSet = EN50160_LV,
): ComplianceResult {
  validateLimitSet(limits);
  const slotCount = checkInput(input);
  const { indices, count: flagged } = collectFlagged(input.flagged);
  const counted = input.recordCounts;
  if (counted) checkCounts(counted, limits, slotCount - flagged);
  const [uLo, uHi, uLo100, uHi100] = deviationBounds(limits.voltage, input.nominalVoltage);
  const voltageShare = limits.voltage.sharePct;
  const unbalanceShare = limits.unbalance.sharePct;
  const above =
    (max: number, sharePct: number) => <P extends Phase | null>(s: Series, phase: P) => {
      countAbove(s, upperLimit(max), indices, flagged);
      return fromCounts(slotCount, flagged, false, sharePct, phase);
    };
  const parameters: ParameterCompliance[] = [
    perPhase("voltage", input.u, (series, phase) => {
      countSeries(series, uLo, uHi, uLo100, uHi100, indices, flagged);
      return fromCounts(slotCount, flagged, true, voltageShare, phase);
    }),
    evaluateFrequency(input, limits.frequency, slotCount, flagged),
    perPhase("flicker", input.plt, (series, phase) => {
      const flaggedBlocks = countPlt(series, upperLimit(limits.flicker.max), input.flagged);
      return fromCounts(series.length, flaggedBlocks, false, limits.flicker.sharePct, phase);
    }),
    single(
      "unbalance",
      counted
        ? fromCount(
          counted.unbalance[1]!,
          counted.unbalance[0]!,
          slotCount,
          flagged,
          unbalanceShare,
        )
        : above(limits.unbalance.max, unbalanceShare)(input.unbalance, null),
    ),
    perPhase("thd", input.thd, above(limits.thd.max, limits.thd.sharePct)),
  ];
  const phases = input.u.length;
  for (let k = 0; k < HARMONIC_ORDERS.length; k++) {
    const order = HARMONIC_ORDERS[k]!;
    const share = limits.harmonics.sharePct;
    if (counted) {
      // Counted by the caller: the same counts the loop below makes from the values.
      const byPhase = Array.from({ length: phases }, (_, p) => {
        const at = k * phases + p;
        return fromCount(
          counted.above[at]!,
          counted.valid[at]!,
          slotCount,
          flagged,
          share,
          PHASES[p]!,
        );
      });
      parameters.push(perPhase(`h${order}`, byPhase, (c) => c));
    } else {
      parameters.push(
        perPhase(`h${order}`, input.h[k]!, above(limits.harmonics.maxPct[order], share)),
      );
    }
  }
  return summarise(parameters, limits.name, slotCount, flagged);
}

/**
 * The counts and verdict of values counted by the caller: `above` of the `valid` values present
 * over the unflagged slots.
 */
function fromCount<P extends Phase | null = null>(
  above: number,
  valid: number,
  slotCount: number,
  flagged: number,
  sharePct: number,
  phase: P = null as P,
) {
  COUNTS[0] = above;
  COUNTS[1] = 0;
  COUNTS[2] = slotCount - flagged - valid;
  return fromCounts(slotCount, flagged, false, sharePct, phase);
}

/** Counts made against these limits, each one's values at most the unflagged slots. */
function checkCounts(counts: RecordCounts, limits: LimitSet, unflagged: number): void {
  const problems: string[] = [];
  for (const order of HARMONIC_ORDERS) {
    if (counts.maxPct[order] !== limits.harmonics.maxPct[order]) {
      problems.push(`recordCounts of h${order} were made against another limit`);
    }
  }
  if (counts.unbalanceMax !== limits.unbalance.max) {
    problems.push("recordCounts of unbalance were made against another limit");
  }
  const check = (name: string, valid: number, above: number) => {
    if (!(valid >= 0 && valid <= unflagged && above >= 0 && above <= valid)) {
      problems.push(`recordCounts ${name}: ${above} above of ${valid} valid, ${unflagged} slots`);
    }
  };
  for (let i = 0; i < counts.valid.length; i++) check(`[${i}]`, counts.valid[i]!, counts.above[i]!);
  check("unbalance", counts.unbalance[0]!, counts.unbalance[1]!);
  if (problems.length > 0) throw new ComplianceError("Cannot evaluate compliance", problems);
}

function evaluateFrequency(
  input: ComplianceInput,
  limit: DeviationLimit,
  slotCount: number,
  flagged: number,
): ParameterCompliance {
  const [lo, hi, lo100, hi100] = deviationBounds(limit, input.nominalFrequency);
  countFrequency(input.fMin, input.fMax, lo, hi, lo100, hi100, input.flagged);
  return single("frequency", fromCounts(slotCount, flagged, true, limit.sharePct, null));
}

/** Absolute [lo, hi, lo100, hi100] of a deviation limit around `nominal`, rounding-widened. */
function deviationBounds(limit: DeviationLimit, nominal: number) {
  const at = (pct: number) => nominal * (1 + pct / 100);
  return [
    lowerLimit(at(limit.band.lowerPct)),
    upperLimit(at(limit.band.upperPct)),
    lowerLimit(at(limit.band100.lowerPct)),
    upperLimit(at(limit.band100.upperPct)),
  ] as const;
}

/** Turns COUNTS of the last count into the counts and verdict of one phase (or of no phase). */
function fromCounts<P extends Phase | null>(
  total: number,
  flagged: number,
  withN2: boolean,
  sharePct: number,
  phase: P,
): ComplianceCounts & { readonly phase: P } {
  const n1 = COUNTS[0]!;
  const missing = COUNTS[2]!;
  const n = total - flagged - missing;
  const n2 = withN2 ? COUNTS[1]! : null;
  // Integer-friendly form of n1 / n <= (100 - share) / 100, so 50 of 1,000 is exactly 5 %.
  const withinShare = n1 * 100 <= n * (100 - sharePct) + 1e-9;
  const passed = n === 0 ? null : withinShare && (n2 === null || n2 === 0);
  const ratioN1 = n === 0 ? null : n1 / n;
  return { phase, n, n1, n2, flagged, missing, ratioN1, passed };
}

function single(parameter: ParameterId, c: ComplianceCounts): ParameterCompliance {
  return toParameter(parameter, c, null, null);
}

function perPhase<S>(
  parameter: ParameterId,
  series: readonly S[],
  count: (series: S, phase: Phase) => PhaseCompliance,
): ParameterCompliance {
  const phases: PhaseCompliance[] = [];
  let worst: PhaseCompliance | undefined;
  for (let i = 0; i < series.length; i++) {
    const phase = count(series[i]!, PHASES[i]!);
    phases.push(phase);
    if (!worst || isWorse(phase, worst)) worst = phase;
  }
  return toParameter(parameter, worst!, worst!.phase, phases);
}

function toParameter(
  parameter: ParameterId,
  c: ComplianceCounts,
  worstPhase: Phase | null,
  phases: readonly PhaseCompliance[] | null,
): ParameterCompliance {
  const { n, n1, n2, flagged, missing, ratioN1, passed } = c;
  return { parameter, n, n1, n2, flagged, missing, ratioN1, passed, worstPhase, phases };
}

/** Failed beats not evaluable beats passed; then the higher N1 ratio, then the higher N2. */
function isWorse(a: ComplianceCounts, b: ComplianceCounts): boolean {
  const rankA = a.passed === false ? 2 : a.passed === null ? 1 : 0;
  const rankB = b.passed === false ? 2 : b.passed === null ? 1 : 0;
  if (rankA !== rankB) return rankA > rankB;
  if ((a.ratioN1 ?? -1) !== (b.ratioN1 ?? -1)) return (a.ratioN1 ?? -1) > (b.ratioN1 ?? -1);
  return (a.n2 ?? 0) > (b.n2 ?? 0);
}

function summarise(
  parameters: readonly ParameterCompliance[],
  limitSet: string,
  slotCount: number,
  flaggedSlots: number,
): ComplianceResult {
  let passed = 0;
  let failed = 0;
  let notEvaluable = 0;
  for (const p of parameters) {
    if (p.passed === true) passed++;
    else if (p.passed === false) failed++;
    else notEvaluable++;
  }
  const verdict = failed > 0 ? false : notEvaluable > 0 ? null : true;
  return {
    passed: verdict,
    limitSet,
    slotCount,
    flaggedSlots,
    summary: { passed, failed, notEvaluable },
    parameters,
  };
}
