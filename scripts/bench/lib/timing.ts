/** Timing with warm-up and repeats. */

/** How often to run a measured function. */
export interface RepeatOptions {
  /** Runs whose time is thrown away (JIT, caches, buffer pool). */
  warmup: number;
  /** Timed runs. */
  repeats: number;
}

/** Milliseconds one call of `fn` takes. */
export async function timeOnce(fn: () => unknown): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/** Runs `fn` warm-up + repeats times and returns the timed samples (ms). */
export function timeRepeated(
  fn: (run: number) => unknown,
  options: RepeatOptions,
): Promise<number[]> {
  return collect((run) => timeOnce(() => fn(run)), options);
}

/**
 * Runs `fn` warm-up + repeats times; `fn` measures itself and returns milliseconds (to leave
 * set-up work out). Warm-up runs get negative run numbers.
 */
export async function collect(
  fn: (run: number) => Promise<number>,
  { warmup, repeats }: RepeatOptions,
): Promise<number[]> {
  for (let k = 0; k < warmup; k++) await fn(-1 - k);
  const samples: number[] = [];
  for (let k = 0; k < repeats; k++) samples.push(await fn(k));
  return samples;
}

/** Runs `fn` for every item with at most `limit` calls in flight; resolves when all are done. */
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}
