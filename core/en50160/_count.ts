/**
 * The counting loops of the engine: plain loops over typed arrays that write their result into
 * one shared scratch array, so evaluating thousands of nodes allocates nothing per slot.
 * Private to core/en50160 (not exported from mod.ts).
 */

/** A 10-minute (or 2-hour) value series; NaN marks a missing value. */
export type Series = Float64Array | Float32Array;

/** Slots per 2-hour Plt block. */
export const SLOTS_PER_PLT = 12;

/**
 * Result of the last count: [N1 (outside the main band), N2 (outside the 100 % band),
 * missing (NaN, not flagged)]. Flagged slots are in none of them.
 */
export const COUNTS = new Int32Array(3);

/**
 * Relative tolerance on a limit. A limit computed in binary floating point may land one ulp
 * on the wrong side of a value that sits exactly on it (230 V x (1 - 8 / 100) is
 * 211.60000000000002, 50 Hz x 1.15 is 57.49999999999999); values carry the device resolution
 * (0.01 V, 0.001 Hz), so 1e-9 only absorbs that rounding and cannot move a real measurement
 * across a limit.
 */
const TOLERANCE = 1e-9;

/** Widens an upper limit by the rounding tolerance (a value equal to a limit is inside). */
export function upperLimit(value: number): number {
  return value + Math.abs(value) * TOLERANCE;
}

/** Widens a lower limit by the rounding tolerance (a value equal to a limit is inside). */
export function lowerLimit(value: number): number {
  return value - Math.abs(value) * TOLERANCE;
}

let flaggedScratch = new Int32Array(1008);

/**
 * Collects the indices of flagged slots (non-zero entries) into a shared scratch array and
 * returns how many there are. The array stays valid until the next call.
 */
export function collectFlagged(flagged: Uint8Array): { indices: Int32Array; count: number } {
  if (flaggedScratch.length < flagged.length) flaggedScratch = new Int32Array(flagged.length);
  let count = 0;
  for (let i = 0; i < flagged.length; i++) {
    if (flagged[i] !== 0) flaggedScratch[count++] = i;
  }
  return { indices: flaggedScratch, count };
}

/**
 * Counts one series against a main band `[lo, hi]` and a 100 % band `[lo100, hi100]` (pass
 * infinities for "no such bound"). The bands are closed: a value equal to a bound is inside.
 *
 * Speed (2,000 nodes x 81 series x 1,008 slots is 163 M values): the loop looks at 8 values at
 * a time and only takes a slot-by-slot look at a group when one of them is outside or NaN
 * (`v >= lo && v <= hi` is false for both), which halves the per-value cost in V8. Flags are
 * not looked at in the loop; the flagged slots (usually few) are taken back out afterwards.
 */
export function countSeries(
  series: Series,
  lo: number,
  hi: number,
  lo100: number,
  hi100: number,
  flaggedIndices: Int32Array,
  flaggedCount: number,
): void {
  let n1 = 0;
  let n2 = 0;
  let missing = 0;
  const length = series.length;
  const whole = length - (length % 8);
  let i = 0;
  for (; i < whole; i += 8) {
    if (
      series[i]! >= lo && series[i]! <= hi && series[i + 1]! >= lo && series[i + 1]! <= hi &&
      series[i + 2]! >= lo && series[i + 2]! <= hi && series[i + 3]! >= lo &&
      series[i + 3]! <= hi && series[i + 4]! >= lo && series[i + 4]! <= hi &&
      series[i + 5]! >= lo && series[i + 5]! <= hi && series[i + 6]! >= lo &&
      series[i + 6]! <= hi && series[i + 7]! >= lo && series[i + 7]! <= hi
    ) continue;
    for (let j = i; j < i + 8; j++) {
      const v = series[j]!;
      if (v > hi || v < lo) {
        n1++;
        if (v > hi100 || v < lo100) n2++;
      } else if (v !== v) missing++;
    }
  }
  for (; i < length; i++) {
    const v = series[i]!;
    if (v > hi || v < lo) {
      n1++;
      if (v > hi100 || v < lo100) n2++;
    } else if (v !== v) missing++;
  }
  for (let k = 0; k < flaggedCount; k++) {
    const v = series[flaggedIndices[k]!]!;
    if (v > hi || v < lo) {
      n1--;
      if (v > hi100 || v < lo100) n2--;
    } else if (v !== v) missing--;
  }
  COUNTS[0] = n1;
  COUNTS[1] = n2;
  COUNTS[2] = missing;
}

/**
 * The same count for a series with only an upper limit and no 100 % band (THD, unbalance,
 * harmonics), with half the compares of `countSeries`. N2 is left at 0.
 */
export function countAbove(
  series: Series,
  hi: number,
  flaggedIndices: Int32Array,
  flaggedCount: number,
): void {
  let n1 = 0;
  let missing = 0;
  const length = series.length;
  const whole = length - (length % 8);
  let i = 0;
  for (; i < whole; i += 8) {
    const a = series[i]!, b = series[i + 1]!, c = series[i + 2]!, d = series[i + 3]!;
    const e = series[i + 4]!, f = series[i + 5]!, g = series[i + 6]!, h = series[i + 7]!;
    if (a <= hi && b <= hi && c <= hi && d <= hi && e <= hi && f <= hi && g <= hi && h <= hi) {
      continue;
    }
    // Branch-free sums: which of the 8 is out is unpredictable, and mispredicted branches
    // cost more here than the 16 compares.
    n1 += +(a > hi) + +(b > hi) + +(c > hi) + +(d > hi) + +(e > hi) + +(f > hi) + +(g > hi) +
      +(h > hi);
    missing += +(a !== a) + +(b !== b) + +(c !== c) + +(d !== d) + +(e !== e) + +(f !== f) +
      +(g !== g) + +(h !== h);
  }
  for (; i < length; i++) {
    const v = series[i]!;
    if (v > hi) n1++;
    else if (v !== v) missing++;
  }
  for (let k = 0; k < flaggedCount; k++) {
    const v = series[flaggedIndices[k]!]!;
    if (v > hi) n1--;
    else if (v !== v) missing--;
  }
  COUNTS[0] = n1;
  COUNTS[1] = 0;
  COUNTS[2] = missing;
}

/**
 * Counts the frequency slots from their minimum and maximum 10-s means: a slot is outside a band
 * when any of its 10-s means was (min below the lower or max above the upper bound), so each
 * slot is judged by its worst 10-s value. A slot missing either value is missing.
 */
export function countFrequency(
  fMin: Series,
  fMax: Series,
  lo: number,
  hi: number,
  lo100: number,
  hi100: number,
  flagged: Uint8Array,
): void {
  let n1 = 0;
  let n2 = 0;
  let missing = 0;
  for (let i = 0; i < flagged.length; i++) {
    if (flagged[i] !== 0) continue;
    const min = fMin[i]!;
    const max = fMax[i]!;
    if (min !== min || max !== max) missing++;
    else if (min < lo || max > hi) {
      n1++;
      if (min < lo100 || max > hi100) n2++;
    }
  }
  COUNTS[0] = n1;
  COUNTS[1] = n2;
  COUNTS[2] = missing;
}

/**
 * Counts 2-hour Plt values against `max`. A block is flagged when any of its 10-minute slots is
 * (IEC 61000-4-30: a value aggregated from a flagged interval is flagged too). Returns the
 * number of flagged blocks; the counts go to COUNTS.
 */
export function countPlt(plt: Series, max: number, flagged: Uint8Array): number {
  let n1 = 0;
  let missing = 0;
  let flaggedBlocks = 0;
  for (let b = 0; b < plt.length; b++) {
    const end = Math.min(flagged.length, (b + 1) * SLOTS_PER_PLT);
    let isFlagged = false;
    for (let i = b * SLOTS_PER_PLT; i < end; i++) {
      if (flagged[i] !== 0) {
        isFlagged = true;
        break;
      }
    }
    const v = plt[b]!;
    if (isFlagged) flaggedBlocks++;
    else if (v > max) n1++;
    else if (v !== v) missing++;
  }
  COUNTS[0] = n1;
  COUNTS[1] = 0;
  COUNTS[2] = missing;
  return flaggedBlocks;
}
