/**
 * Arithmetic on slot arrays (NaN marks a slot without a value): the phases of a feeder combined
 * into one curve, a curve's summary, and the 2-decimal values of an answer. Pure.
 */

/** How phase arrays combine slot by slot. */
export type Combination = "mean" | "sum" | "min" | "max";

/**
 * One array from the phase arrays of a feeder, slot by slot. `mean`, `min` and `max` take the
 * phases that have a value in the slot; `sum` (active and reactive power) needs every phase, as
 * a sum with a phase missing would show a drop that did not happen. No value: NaN.
 */
export function combinePhases(
  arrays: readonly ArrayLike<number>[],
  how: Combination,
  length: number,
): Float64Array {
  const out = new Float64Array(length).fill(NaN);
  if (!arrays.length) return out;
  for (let k = 0; k < length; k++) {
    let n = 0;
    let acc = how === "min" ? Infinity : how === "max" ? -Infinity : 0;
    for (const array of arrays) {
      const v = array[k]!;
      if (Number.isNaN(v)) {
        if (how === "sum") {
          n = 0;
          break;
        }
        continue;
      }
      n++;
      if (how === "min") acc = v < acc ? v : acc;
      else if (how === "max") acc = v > acc ? v : acc;
      else acc += v;
    }
    if (n) out[k] = how === "mean" ? acc / n : acc;
  }
  return out;
}

/** Lowest, highest and mean value of a curve, 2 decimals; null when it has no value. */
export function summarize(
  values: ArrayLike<number>,
): { min: number | null; max: number | null; mean: number | null } {
  let min = Infinity, max = -Infinity, sum = 0, n = 0;
  for (let k = 0; k < values.length; k++) {
    const v = values[k]!;
    if (Number.isNaN(v)) continue;
    if (v < min) min = v;
    if (v > max) max = v;
    sum += v;
    n++;
  }
  return n
    ? { min: round2(min), max: round2(max), mean: round2(sum / n) }
    : { min: null, max: null, mean: null };
}

/** A value rounded to 2 decimals (spec 9: formatted number digits 2), never -0. */
export function round2(value: number): number {
  const rounded = Math.round(value * 100) / 100;
  return rounded === 0 ? 0 : rounded;
}

/** The answer's values: 2 decimals, null for a slot without a value (gaps stay gaps). */
export function answerValues(values: ArrayLike<number>): (number | null)[] {
  const out = new Array<number | null>(values.length);
  for (let k = 0; k < values.length; k++) {
    const v = values[k]!;
    out[k] = Number.isNaN(v) ? null : round2(v);
  }
  return out;
}

/** Whether any slot of any array holds a value. */
export function hasValues(arrays: Iterable<ArrayLike<number>>): boolean {
  for (const array of arrays) {
    for (let k = 0; k < array.length; k++) if (!Number.isNaN(array[k]!)) return true;
  }
  return false;
}
