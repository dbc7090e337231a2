/** Builders of evaluation inputs for the tests of core/en50160 (not exported from mod.ts). */
import assert from "node:assert/strict";
import type {
  ComplianceInput,
  ComplianceResult,
  ParameterCompliance,
  ParameterId,
} from "./evaluate.ts";
import { HARMONIC_ORDERS } from "./limits.ts";
import { isoWeekRange } from "./period.ts";

/** Options of `compliantWeek()`. */
export interface WeekOptions {
  readonly nominalVoltage?: number;
  readonly nominalFrequency?: 50 | 60;
  readonly phases?: number;
}

/** A mutable input: the tests write single slots into its arrays. */
export type TestInput = ComplianceInput & {
  readonly u: Float64Array[];
  readonly fMin: Float64Array;
  readonly fMax: Float64Array;
  readonly plt: Float64Array[];
  readonly unbalance: Float64Array;
  readonly thd: Float64Array[];
  readonly h: Float64Array[][];
};

/** ISO week 2026-W03 (1,008 slots) in which every value sits well inside EN 50160 LV. */
export function compliantWeek(options: WeekOptions = {}): TestInput {
  const period = isoWeekRange(2026, 3);
  const slots = period.slotCount;
  const un = options.nominalVoltage ?? 230;
  const fn = options.nominalFrequency ?? 50;
  const phases = options.phases ?? 3;
  const perPhase = (value: number, length = slots) =>
    Array.from({ length: phases }, () => new Float64Array(length).fill(value));
  return {
    period,
    nominalVoltage: un,
    nominalFrequency: fn,
    u: perPhase(un),
    fMin: new Float64Array(slots).fill(fn - 0.02 * (fn / 50)),
    fMax: new Float64Array(slots).fill(fn + 0.02 * (fn / 50)),
    plt: perPhase(0.4, Math.ceil(slots / 12)),
    unbalance: new Float64Array(slots).fill(0.5),
    thd: perPhase(2),
    h: HARMONIC_ORDERS.map(() => perPhase(0.1)),
    flagged: new Uint8Array(slots),
  };
}

/** Writes `value` into `count` slots of `series` from slot `start`. */
export function setSlots(
  series: Float64Array | Uint8Array,
  start: number,
  count: number,
  value: number,
) {
  series.fill(value, start, start + count);
}

/** The result of one parameter; fails the test when it is absent. */
export function param(result: ComplianceResult, id: ParameterId): ParameterCompliance {
  const found = result.parameters.find((p) => p.parameter === id);
  assert.ok(found, `No result for ${id}`);
  return found;
}
