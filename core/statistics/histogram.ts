/**
 * The distribution of a quantity over a period: equal-width bins between the lowest and the
 * highest value, with the mean and the 5th and 95th percentiles. Pure.
 */
import { round2 } from "./combine.ts";

/** Bins allowed in a request, and the default. */
export const HISTOGRAM_BINS = Object.freeze({ min: 1, max: 100, default: 40 });

/** One bin: values in `[from, to)`, the last bin also holds `to` (the highest value). */
export interface HistogramBin {
  from: number;
  to: number;
  count: number;
}

/** A histogram and the figures of its values, 2 decimals. */
export interface Histogram {
  bins: HistogramBin[];
  count: number;
  min: number;
  max: number;
  mean: number;
  p05: number;
  p95: number;
}

/**
 * The histogram of the values of `arrays` (NaN: no value) in `bins` equal-width bins, or null
 * when there is no value. When every value is the same, one unit around it is split instead,
 * so that the bar stands in the middle of the chart.
 */
export function histogram(arrays: readonly ArrayLike<number>[], bins: number): Histogram | null {
  let n = 0;
  for (const array of arrays) {
    for (let k = 0; k < array.length; k++) if (!Number.isNaN(array[k]!)) n++;
  }
  if (!n) return null;
  const sorted = new Float64Array(n);
  let at = 0, sum = 0;
  for (const array of arrays) {
    for (let k = 0; k < array.length; k++) {
      const v = array[k]!;
      if (Number.isNaN(v)) continue;
      sorted[at++] = v;
      sum += v;
    }
  }
  sorted.sort();
  const min = sorted[0]!, max = sorted[n - 1]!;
  const lo = min === max ? min - 0.5 : min;
  const hi = min === max ? max + 0.5 : max;
  const width = (hi - lo) / bins;
  const counts = new Array<number>(bins).fill(0);
  for (let k = 0; k < n; k++) {
    counts[Math.min(bins - 1, Math.floor((sorted[k]! - lo) / width))]!++;
  }
  return {
    bins: counts.map((count, b) => ({
      from: round2(lo + b * width),
      to: round2(b === bins - 1 ? hi : lo + (b + 1) * width),
      count,
    })),
    count: n,
    min: round2(min),
    max: round2(max),
    mean: round2(sum / n),
    p05: round2(percentile(sorted, 0.05)),
    p95: round2(percentile(sorted, 0.95)),
  };
}

/** The `q` quantile of sorted values, interpolated linearly between the closest ranks. */
export function percentile(sorted: ArrayLike<number>, q: number): number {
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.min(sorted.length - 1, below + 1);
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (position - below);
}
