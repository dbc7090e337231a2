/**
 * Polyphase detection of dips, swells and interruptions on Urms(1/2), after IEC 61000-4-30
 * (RVCs are in `rvc.ts`). One pass over a typed array, no allocation per sample.
 *
 * Output shapes are snake_case like the event record a cell uploads, so a detected event reads
 * the same as an uploaded one.
 *
 * @module
 */

import type { EventPhase } from "./record.ts";
import { THRESHOLDS } from "./tables.ts";

/** What the half-cycle detector finds. */
export type DetectedKind = "DIP" | "SWELL" | "INTERRUPTION";

/** A dip, swell or interruption found on a Urms(1/2) trace. */
export interface DetectedEvent {
  kind: DetectedKind;
  /** First half cycle of the event. */
  start_index: number;
  /** First half cycle after it (every phase recovered); the trace length while still running. */
  end_index: number;
  /** Offsets from the first sample of the trace. */
  start_ms: number;
  end_ms: number;
  duration_ms: number;
  /** Lowest (dip, interruption) or highest (swell) value of any phase, % of Uref. */
  extreme_pct: number;
  /** First phase to cross the start threshold (first in `phases` order on a tie). */
  start_phase: EventPhase;
  /** Last phase to recover (first in `phases` order on a tie); `null` while still running. */
  end_phase: EventPhase | null;
  /** False when the trace ends before the event does. */
  complete: boolean;
}

interface Rule {
  kind: "DIP" | "SWELL";
  // Dips compare values as they are, swells compare them negated, so "below" means "worse"
  // for both and one state machine serves the two.
  sign: 1 | -1;
  start: number;
  end: number;
}

const DIP_RULE: Rule = {
  kind: "DIP",
  sign: 1,
  start: THRESHOLDS.dipStartPct,
  end: THRESHOLDS.dipEndPct,
};
const SWELL_RULE: Rule = {
  kind: "SWELL",
  sign: -1,
  start: -THRESHOLDS.swellStartPct,
  end: -THRESHOLDS.swellEndPct,
};

interface Excursion {
  active: boolean;
  start: number;
  startPhase: number;
  worst: number;
  interrupted: boolean;
}

function checkFinite(values: Float64Array, what: string): void {
  for (let i = 0; i < values.length; i++) {
    if (!Number.isFinite(values[i])) throw new RangeError(`${what}: value ${i} is not finite`);
  }
}

/**
 * Runs one rule over half cycle `k`: starts, extends or ends the excursion. Returns the phase
 * index that ended it, `-1` when it goes on or is not running.
 */
function step(rule: Rule, ex: Excursion, trace: Float64Array, k: number, n: number): number {
  const base = k * n;
  const s = rule.sign;
  if (!ex.active) {
    for (let p = 0; p < n; p++) {
      if (s * trace[base + p]! < rule.start) {
        ex.active = true;
        ex.start = k;
        ex.startPhase = p;
        ex.worst = Infinity;
        ex.interrupted = false;
        break;
      }
    }
    if (!ex.active) return -1;
  } else {
    let recovered = true;
    for (let p = 0; p < n && recovered; p++) recovered = s * trace[base + p]! >= rule.end;
    if (recovered) {
      ex.active = false;
      for (let p = 0; p < n; p++) if (s * trace[base - n + p]! < rule.end) return p;
      return 0; // unreachable: the previous half cycle had a phase not yet recovered
    }
  }
  let allInterrupted = true;
  for (let p = 0; p < n; p++) {
    const v = trace[base + p]!;
    if (s * v < ex.worst) ex.worst = s * v;
    if (!(v < THRESHOLDS.interruptionPct)) allInterrupted = false;
  }
  if (allInterrupted) ex.interrupted = true;
  return -1;
}

/**
 * Finds dips, swells and interruptions on a Urms(1/2) trace in % of Uref.
 *
 * `trace` holds one value per phase and half cycle, interleaved in `phases` order
 * (`[L1, L2, L3, L1, L2, L3, ...]`). A dip starts when the first phase falls below 90 % and ends
 * when the last phase is back at 92 % or more (2 % hysteresis); a swell starts above 110 % and
 * ends when every phase is at 108 % or less. A dip during which every phase was below 5 % at the
 * same half cycle is reported once, as an INTERRUPTION spanning the whole disturbance, so one
 * outage never counts as both a dip and an interruption. Dips and swells are tracked
 * independently (a neutral shift can raise one phase while another sags).
 */
export function detectEvents(
  trace: Float64Array,
  halfCycleMs: number,
  phases: readonly EventPhase[] = ["L1"],
): DetectedEvent[] {
  const n = phases.length;
  if (n === 0 || trace.length % n !== 0) {
    throw new RangeError(
      `Cannot detect events: trace length ${trace.length} is not a multiple of ${n} phases`,
    );
  }
  if (!(halfCycleMs > 0) || !Number.isFinite(halfCycleMs)) {
    throw new RangeError(`Cannot detect events: half cycle ${halfCycleMs} ms is not positive`);
  }
  checkFinite(trace, "Cannot detect events");
  const count = trace.length / n;
  const events: DetectedEvent[] = [];
  const emit = (rule: Rule, ex: Excursion, end: number, endPhase: number) => {
    events.push({
      kind: rule.kind === "DIP" && ex.interrupted ? "INTERRUPTION" : rule.kind,
      start_index: ex.start,
      end_index: end,
      start_ms: ex.start * halfCycleMs,
      end_ms: end * halfCycleMs,
      duration_ms: (end - ex.start) * halfCycleMs,
      extreme_pct: rule.sign * ex.worst,
      start_phase: phases[ex.startPhase]!,
      end_phase: endPhase < 0 ? null : phases[endPhase]!,
      complete: endPhase >= 0,
    });
  };
  const dip: Excursion = { active: false, start: 0, startPhase: 0, worst: 0, interrupted: false };
  const swell: Excursion = { ...dip };
  const tracked = [[DIP_RULE, dip], [SWELL_RULE, swell]] as const;
  for (let k = 0; k < count; k++) {
    for (const [rule, ex] of tracked) {
      const ended = step(rule, ex, trace, k, n);
      if (ended >= 0) emit(rule, ex, k, ended);
    }
  }
  if (dip.active) emit(DIP_RULE, dip, count, -1);
  if (swell.active) emit(SWELL_RULE, swell, count, -1);
  return events.sort((a, b) => a.start_index - b.start_index);
}
