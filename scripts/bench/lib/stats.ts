/** Summary statistics of timing samples. Pure. */

/** The p-th percentile (0..100) of `samples`, linear between the two nearest ranks. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = (Math.min(Math.max(p, 0), 100) / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low);
}

/** Median, p99, mean, min and max of a list of samples (ms). */
export interface Summary {
  n: number;
  p50: number;
  p99: number;
  mean: number;
  min: number;
  max: number;
}

/** Summarises samples; every field is NaN (n = 0) for an empty list. */
export function summarize(samples: readonly number[]): Summary {
  const n = samples.length;
  const sum = samples.reduce((acc, x) => acc + x, 0);
  return {
    n,
    p50: percentile(samples, 50),
    p99: percentile(samples, 99),
    mean: n ? sum / n : NaN,
    min: n ? Math.min(...samples) : NaN,
    max: n ? Math.max(...samples) : NaN,
  };
}

/** Items per second for `count` items done in `ms` milliseconds. */
export function perSecond(count: number, ms: number): number {
  return ms > 0 ? (count * 1000) / ms : NaN;
}
