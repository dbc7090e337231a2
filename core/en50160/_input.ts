/**
 * Shape checks of an evaluation input: every series has the length the period asks for, so the
 * counting loops can trust their indices. Private to core/en50160.
 */
import { type Series, SLOTS_PER_PLT } from "./_count.ts";
import { ComplianceError } from "./errors.ts";
import { HARMONIC_ORDERS } from "./limits.ts";
import { validateReportPeriod } from "./period.ts";

/** The series of one node that the checks look at (see `ComplianceInput`). */
export interface InputShape {
  readonly period: { readonly from: Date; readonly to: Date };
  readonly nominalVoltage: number;
  readonly nominalFrequency: number;
  readonly u: readonly Series[];
  readonly fMin: Series;
  readonly fMax: Series;
  readonly plt: readonly Series[];
  readonly unbalance: Series;
  readonly thd: readonly Series[];
  readonly h: readonly (readonly Series[])[];
  readonly recordCounts?: {
    readonly valid: Int32Array;
    readonly above: Int32Array;
    readonly unbalance: Int32Array;
  };
  readonly flagged: Uint8Array;
}

/**
 * Checks an input and returns its slot count. Throws `PeriodError` (401-403) for an unusable
 * period and `ComplianceError` (522) listing every series of the wrong length or type.
 */
export function checkInput(input: InputShape): number {
  const { slotCount } = validateReportPeriod(input.period.from, input.period.to);
  const problems: string[] = [];
  const un = input.nominalVoltage;
  if (typeof un !== "number" || !Number.isFinite(un) || un <= 0) {
    problems.push(`nominalVoltage must be a positive number of volts, got ${un}`);
  }
  if (input.nominalFrequency !== 50 && input.nominalFrequency !== 60) {
    problems.push(`nominalFrequency must be 50 or 60, got ${input.nominalFrequency}`);
  }
  const phases = Array.isArray(input.u) ? input.u.length : 0;
  if (phases < 1 || phases > 3) problems.push(`u must hold 1 to 3 phases, got ${phases}`);
  checkPhases(problems, "u", input.u, phases, slotCount);
  checkSeries(problems, "fMin", input.fMin, slotCount);
  checkSeries(problems, "fMax", input.fMax, slotCount);
  checkPhases(problems, "plt", input.plt, phases, Math.ceil(slotCount / SLOTS_PER_PLT));
  checkPhases(problems, "thd", input.thd, phases, slotCount);
  const counts = input.recordCounts;
  if (counts) {
    for (const name of ["valid", "above"] as const) {
      const a = counts[name];
      if (!(a instanceof Int32Array) || a.length !== HARMONIC_ORDERS.length * phases) {
        problems.push(`recordCounts.${name} must be an Int32Array of orders 2..25 x phases`);
      }
    }
    if (!(counts.unbalance instanceof Int32Array) || counts.unbalance.length !== 2) {
      problems.push("recordCounts.unbalance must be an Int32Array of 2 counts");
    }
  } else {
    checkSeries(problems, "unbalance", input.unbalance, slotCount);
    if (!Array.isArray(input.h) || input.h.length !== HARMONIC_ORDERS.length) {
      problems.push(`h must hold orders 2..25 (${HARMONIC_ORDERS.length} entries)`);
    } else {
      input.h.forEach((order, k) => checkPhases(problems, `h[${k}]`, order, phases, slotCount));
    }
  }
  if (!(input.flagged instanceof Uint8Array) || input.flagged.length !== slotCount) {
    problems.push(`flagged must be a Uint8Array of ${slotCount} slots`);
  }
  if (problems.length > 0) throw new ComplianceError("Cannot evaluate compliance", problems);
  return slotCount;
}

function checkPhases(
  problems: string[],
  name: string,
  value: readonly Series[] | undefined,
  phases: number,
  length: number,
): void {
  if (!Array.isArray(value) || value.length !== phases) {
    problems.push(`${name} must hold ${phases} phase series like u`);
    return;
  }
  value.forEach((series, phase) => checkSeries(problems, `${name}[L${phase + 1}]`, series, length));
}

function checkSeries(problems: string[], name: string, value: unknown, length: number): void {
  if (!(value instanceof Float64Array || value instanceof Float32Array)) {
    problems.push(`${name} must be a Float64Array or Float32Array`);
  } else if (value.length !== length) {
    problems.push(`${name} has ${value.length} values, expected ${length}`);
  }
}
