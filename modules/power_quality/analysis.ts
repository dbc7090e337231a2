/**
 * The evaluation of a report: one columnar load of the feeders' 10-minute aggregates and PQ
 * records over the whole period (core `loadComplianceInputs`, one query per table), then the
 * core EN 50160 engine over each full ISO week of the period and the remaining parts, summed into
 * one summary per feeder, parameter and phase with the 95th percentile (99.5th for frequency)
 * and the maximum. Pure apart from the load.
 */
import {
  type ComplianceInput,
  type ComplianceResult,
  evaluateCompliance,
  type LimitSet,
  type ParameterCompliance,
} from "../../core/mod.ts";
import type { FeederSummaryDto, ParameterSummaryDto, PhaseSummaryDto } from "./contract.ts";

const SLOT_MS = 600_000;
const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
/** Plt is one value per 2 hours (12 slots). */
const SLOTS_PER_PLT = 12;
const PLT_MS = SLOTS_PER_PLT * SLOT_MS;
const PHASES = ["L1", "L2", "L3"] as const;

/** A part of a report period: a full ISO week or the rest before or after the full weeks. */
export interface PeriodPart {
  from: number;
  to: number;
  full: boolean;
}

/** Splits `[from, to)` into its full ISO weeks (Monday 00:00 UTC) and the remaining parts. */
export function periodParts(from: number, to: number): PeriodPart[] {
  const monday = (t: number) => {
    const midnight = Math.floor(t / DAY_MS) * DAY_MS;
    return midnight - ((new Date(midnight).getUTCDay() + 6) % 7) * DAY_MS;
  };
  let week = monday(from);
  if (week < from) week += WEEK_MS;
  const parts: PeriodPart[] = [];
  if (week + WEEK_MS > to) return [{ from, to, full: false }];
  if (from < week) parts.push({ from, to: week, full: false });
  for (; week + WEEK_MS <= to; week += WEEK_MS) {
    parts.push({ from: week, to: week + WEEK_MS, full: true });
  }
  if (week < to) parts.push({ from: week, to, full: false });
  return parts;
}

/** The load's start: the period's start on the 2-hour grid, so ISO weeks fall on Plt blocks. */
export function loadStart(from: number): number {
  return Math.floor(from / PLT_MS) * PLT_MS;
}

/**
 * The engine input of `part` cut out of `whole` (loaded from `loadStart(period start)`): views
 * on the same arrays, no copy. A part that does not start on a 2-hour block (only the first one)
 * takes the blocks that overlap it.
 */
export function sliceInput(whole: ComplianceInput, part: PeriodPart): ComplianceInput {
  const origin = whole.period.from.getTime();
  const a = (part.from - origin) / SLOT_MS;
  const b = (part.to - origin) / SLOT_MS;
  const blocks = Math.ceil((b - a) / SLOTS_PER_PLT);
  const firstBlock = Math.floor(a / SLOTS_PER_PLT);
  const slots = <T extends Float32Array | Float64Array | Uint8Array>(s: T) => s.subarray(a, b) as T;
  return {
    period: { from: new Date(part.from), to: new Date(part.to) },
    nominalVoltage: whole.nominalVoltage,
    nominalFrequency: whole.nominalFrequency,
    u: whole.u.map(slots),
    fMin: slots(whole.fMin),
    fMax: slots(whole.fMax),
    plt: whole.plt.map((s) => s.subarray(firstBlock, firstBlock + blocks)),
    unbalance: slots(whole.unbalance),
    thd: whole.thd.map(slots),
    h: whole.h.map((order) => order.map(slots)),
    flagged: slots(whole.flagged),
  };
}

/** Nearest-rank percentile of the collected values; null when there are none. */
export function percentile(values: number[], pct: number): number | null {
  if (!values.length) return null;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.max(1, Math.ceil((pct / 100) * sorted.length));
  return sorted[rank - 1]!;
}

const round = (v: number | null, digits = 3) =>
  v === null ? null : Math.round(v * 10 ** digits) / 10 ** digits;

/** Valid (not flagged, not missing) values of a slot series, mapped. */
function collect(
  series: ArrayLike<number>,
  flagged: Uint8Array,
  map: (v: number, i: number) => number = (v) => v,
): number[] {
  const out: number[] = [];
  for (let i = 0; i < series.length; i++) {
    const v = series[i]!;
    if (!Number.isNaN(v) && !flagged[i]) out.push(map(v, i));
  }
  return out;
}

/** Valid Plt blocks (no flagged slot inside the block). */
function collectPlt(plt: ArrayLike<number>, flagged: Uint8Array): number[] {
  const out: number[] = [];
  for (let k = 0; k < plt.length; k++) {
    const v = plt[k]!;
    if (Number.isNaN(v)) continue;
    if (flagged.subarray(k * SLOTS_PER_PLT, (k + 1) * SLOTS_PER_PLT).some((f) => f === 1)) {
      continue;
    }
    out.push(v);
  }
  return out;
}

/** The values a parameter's percentile and maximum are taken of, per phase (one list: the node). */
export function valuesOf(input: ComplianceInput, parameter: string): (number[])[] {
  const { flagged } = input;
  const un = input.nominalVoltage;
  const fn = input.nominalFrequency;
  switch (parameter) {
    case "voltage":
      return input.u.map((s) => collect(s, flagged, (v) => (Math.abs(v - un) / un) * 100));
    case "frequency":
      return [collect(input.fMin, flagged, (v, i) => {
        const hi = input.fMax[i]!;
        const dev = Math.max(Math.abs(v - fn), Number.isNaN(hi) ? 0 : Math.abs(hi - fn));
        return (dev / fn) * 100;
      })];
    case "flicker":
      return input.plt.map((s) => collectPlt(s, flagged));
    case "unbalance":
      return [collect(input.unbalance, flagged)];
    case "thd":
      return input.thd.map((s) => collect(s, flagged));
    default: {
      const order = Number(parameter.slice(1));
      return input.h[order - 2]!.map((s) => collect(s, flagged));
    }
  }
}

/** Limit, 100 % band, share and unit of a parameter in a limit set. */
export function limitOf(limits: LimitSet, parameter: string) {
  switch (parameter) {
    case "voltage":
    case "frequency": {
      const l = limits[parameter];
      return {
        limit: Math.max(Math.abs(l.band.lowerPct), Math.abs(l.band.upperPct)),
        limit100: [l.band100.lowerPct, l.band100.upperPct] as [number, number],
        share_pct: l.sharePct,
        unit: "%",
      };
    }
    case "flicker":
      return {
        limit: limits.flicker.max,
        limit100: null,
        share_pct: limits.flicker.sharePct,
        unit: "",
      };
    case "unbalance":
    case "thd":
      return {
        limit: limits[parameter].max,
        limit100: null,
        share_pct: limits[parameter].sharePct,
        unit: "%",
      };
    default: {
      const order = Number(parameter.slice(1)) as keyof LimitSet["harmonics"]["maxPct"];
      return {
        limit: limits.harmonics.maxPct[order],
        limit100: null,
        share_pct: limits.harmonics.sharePct,
        unit: "%",
      };
    }
  }
}

type Counts = Omit<PhaseSummaryDto, "phase" | "value" | "max">;

function addCounts(into: Counts | undefined, c: Counts): Counts {
  if (!into) return { ...c };
  return {
    n: into.n + c.n,
    n1: into.n1 + c.n1,
    n2: into.n2 === null || c.n2 === null ? null : into.n2 + c.n2,
    flagged: into.flagged + c.flagged,
    missing: into.missing + c.missing,
    passed: combine(into.passed, c.passed),
  };
}

/** A parameter over several parts: failed if any part failed, passed if any passed, else null. */
function combine(a: boolean | null, b: boolean | null): boolean | null {
  if (a === false || b === false) return false;
  if (a === true || b === true) return true;
  return null;
}

/** What one feeder's evaluation gives: its summary and the per-part engine results. */
export interface FeederEvaluation {
  summary: FeederSummaryDto;
  parts: { part: PeriodPart; result: ComplianceResult }[];
}

/**
 * Evaluates one feeder's loaded input (from `loadStart(from)` to `to`) over the parts of
 * `[from, to)`. Throws the engine's errors (PeriodError, ComplianceError).
 */
export function evaluateFeeder(
  feeder: { id: string; name: string },
  whole: ComplianceInput,
  from: number,
  to: number,
  limits: LimitSet,
): FeederEvaluation {
  const parts = periodParts(from, to).map((part) => ({
    part,
    result: evaluateCompliance(sliceInput(whole, part), limits),
  }));
  const inPeriod = sliceInput(whole, { from, to, full: false });
  const parameters: ParameterSummaryDto[] = parts[0]!.result.parameters.map((first, k) => {
    const id = first.parameter;
    const perPhase = new Map<string | null, Counts>();
    let total: Counts | undefined;
    for (const { result } of parts) {
      const p: ParameterCompliance = result.parameters[k]!;
      total = addCounts(total, p);
      for (const phase of p.phases ?? [{ ...p, phase: null }]) {
        perPhase.set(phase.phase, addCounts(perPhase.get(phase.phase), phase));
      }
    }
    const values = valuesOf(inPeriod, id);
    const pct = id === "frequency" ? 99.5 : 95;
    const phases: PhaseSummaryDto[] = [...perPhase.entries()].map(([phase, counts], i) => {
      const v = values[i] ?? [];
      return {
        phase: phase as PhaseSummaryDto["phase"],
        ...counts,
        value: round(percentile(v, pct)),
        max: round(v.length ? v.reduce((m, x) => (x > m ? x : m), -Infinity) : null),
      };
    });
    // The parameter's counts are its worst phase's (the engine's rule), summed over the parts.
    const worst = phases.reduce((w, p) => worse(p, w) ? p : w, phases[0]!);
    const { phase: _p, value: _v, max: _m, ...worstCounts } = worst;
    return {
      parameter: id,
      ...limitOf(limits, id),
      ...(total && phases.length === 1 ? total : worstCounts),
      phases,
    };
  });
  const voltage = parameters[0]!;
  const slots = (to - from) / SLOT_MS;
  const passed = parameters.some((p) => p.passed === false)
    ? false
    : parameters.every((p) => p.passed === true)
    ? true
    : null;
  return {
    parts,
    summary: {
      feeder_id: feeder.id,
      feeder_name: feeder.name,
      passed,
      availability_pct: round((voltage.n / slots) * 100, 2)!,
      slots,
      flagged: voltage.flagged,
      missing: voltage.missing,
      weeks: parts.map(({ part, result }) => ({
        from: new Date(part.from).toISOString(),
        to: new Date(part.to).toISOString(),
        full: part.full,
        passed: result.passed,
        failed: result.parameters.filter((p) => p.passed === false).map((p) => p.parameter),
      })),
      parameters,
    },
  };
}

/** Failed beats not evaluable beats passed; then the higher N1 share, then N2. */
function worse(a: Counts, b: Counts): boolean {
  const rank = (c: Counts) => (c.passed === false ? 2 : c.passed === null ? 1 : 0);
  if (rank(a) !== rank(b)) return rank(a) > rank(b);
  const ratio = (c: Counts) => (c.n ? c.n1 / c.n : -1);
  if (ratio(a) !== ratio(b)) return ratio(a) > ratio(b);
  return (a.n2 ?? 0) > (b.n2 ?? 0);
}

export { PHASES };
