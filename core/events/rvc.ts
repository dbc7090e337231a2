/**
 * Rapid voltage change (RVC) detection on 1-s means of Urms(1/2), after IEC 61000-4-30: a quick
 * move between two steady states that never reaches the dip or swell thresholds. One pass, one
 * small ring buffer, no allocation per sample.
 *
 * @module
 */

import { THRESHOLDS } from "./tables.ts";

/** A rapid voltage change found on 1-s means. */
export interface RvcEvent {
  /** Index of the first mean that left the steady band. */
  start_index: number;
  /** Index of the first mean of the new steady state. */
  end_index: number;
  start_ms: number;
  end_ms: number;
  duration_ms: number;
  /** Largest deviation from the previous steady mean during the change, signed, % of Udin. */
  delta_u_max_pct: number;
  /** New steady mean minus previous steady mean, signed, % of Udin. */
  delta_u_ss_pct: number;
}

/** Options of {@linkcode detectRvc}. */
export interface RvcOptions {
  /** Milliseconds between two means (default 1000). */
  intervalMs?: number;
  /**
   * Consecutive means within the threshold of their own average that make a steady state
   * (default 2: the voltage has to settle for a full second after the change).
   */
  steadySamples?: number;
  /**
   * Dips, swells and interruptions found on the half-cycle trace of the same span (offsets in
   * the same time base): an RVC overlapping one is dropped, because a 1-s mean smooths a short
   * dip into what looks like a small change.
   */
  excursions?: readonly { start_ms: number; end_ms: number }[];
}

/** The last `size` in-band means, kept in a ring so the steady reference slides (IEC). */
class SteadyWindow {
  readonly #values: Float64Array;
  #next = 0;
  count = 0;
  #sum = 0;

  constructor(size: number) {
    this.#values = new Float64Array(size);
  }

  get full(): boolean {
    return this.count === this.#values.length;
  }

  get mean(): number {
    return this.#sum / this.count;
  }

  push(v: number): void {
    if (this.full) this.#sum -= this.#values[this.#next]!;
    else this.count++;
    this.#values[this.#next] = v;
    this.#sum += v;
    this.#next = (this.#next + 1) % this.#values.length;
  }

  reset(): void {
    this.count = this.#next = this.#sum = 0;
  }
}

function checkRvcArguments(threshold: number, intervalMs: number, steady: number): void {
  const { rvcMinThresholdPct: min, rvcMaxThresholdPct: max } = THRESHOLDS;
  if (!(threshold >= min && threshold <= max)) {
    throw new RangeError(
      `Cannot detect RVCs: threshold ${threshold} % is outside ${min}..${max} % of Udin`,
    );
  }
  if (!(intervalMs > 0) || !Number.isFinite(intervalMs)) {
    throw new RangeError(`Cannot detect RVCs: interval ${intervalMs} ms is not positive`);
  }
  if (!Number.isInteger(steady) || steady < 1) {
    throw new RangeError(`Cannot detect RVCs: steadySamples ${steady} is not a positive integer`);
  }
}

/**
 * Finds rapid voltage changes: moves from one steady state to another (each mean within
 * `thresholdPct` of the average of the preceding steady means) that stay inside the dip and
 * swell thresholds (90..110 %) all along. A change that leaves that band is a dip or a swell,
 * never an RVC, and is dropped; so is a change still running when the series ends (its new
 * steady state is unknown). Means are in % of Udin; `thresholdPct` must be 1..6 %.
 */
export function detectRvc(
  oneSecondMeans: Float64Array,
  thresholdPct: number,
  options: RvcOptions = {},
): RvcEvent[] {
  const { intervalMs = 1000, steadySamples = 2, excursions = [] } = options;
  checkRvcArguments(thresholdPct, intervalMs, steadySamples);
  oneSecondMeans.forEach((v, i) => {
    if (!Number.isFinite(v)) throw new RangeError(`Cannot detect RVCs: value ${i} is not finite`);
  });
  const window = new SteadyWindow(steadySamples);
  const events: RvcEvent[] = [];
  let state: "SEEKING" | "STEADY" | "CHANGING" = "SEEKING";
  let start = 0;
  let runStart = 0;
  let before = 0;
  let crossed = false;
  for (let i = 0; i < oneSecondMeans.length; i++) {
    const v = oneSecondMeans[i]!;
    const inBand = v >= THRESHOLDS.dipStartPct && v <= THRESHOLDS.swellStartPct;
    const fits = inBand && window.count > 0 && Math.abs(v - window.mean) <= thresholdPct;
    if (state === "STEADY") {
      if (fits) window.push(v);
      else {
        // The mean that broke the steady state belongs to the change, never to the new state.
        [state, start, before, crossed] = ["CHANGING", i, window.mean, !inBand];
        window.reset();
      }
      continue;
    }
    if (!inBand) crossed = true;
    if (!fits) window.reset();
    if (!inBand) continue;
    if (window.count === 0) runStart = i;
    window.push(v);
    if (!window.full) continue;
    if (state === "CHANGING" && !crossed) {
      const rvc = describeRvc(oneSecondMeans, start, runStart, before, window.mean, intervalMs);
      if (!overlaps(rvc, excursions)) events.push(rvc);
    }
    state = "STEADY";
  }
  return events;
}

function describeRvc(
  means: Float64Array,
  start: number,
  end: number,
  before: number,
  after: number,
  intervalMs: number,
): RvcEvent {
  // The voltage has reached the new steady level by the end of the change, so the largest
  // deviation is never smaller than the steady one (1-s means may smear the step over the edge).
  let deltaMax = after - before;
  for (let i = start; i < end; i++) {
    const delta = means[i]! - before;
    if (Math.abs(delta) > Math.abs(deltaMax)) deltaMax = delta;
  }
  return {
    start_index: start,
    end_index: end,
    start_ms: start * intervalMs,
    end_ms: end * intervalMs,
    duration_ms: (end - start) * intervalMs,
    delta_u_max_pct: deltaMax,
    delta_u_ss_pct: after - before,
  };
}

function overlaps(
  rvc: RvcEvent,
  excursions: readonly { start_ms: number; end_ms: number }[],
): boolean {
  return excursions.some((e) => e.start_ms < rvc.end_ms && rvc.start_ms < e.end_ms);
}
