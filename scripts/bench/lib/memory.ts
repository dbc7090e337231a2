/**
 * Peak resident memory of the process (workers and DuckDB included): `Deno.memoryUsage().rss`
 * sampled on a timer, per named phase. Samples also at each phase change, because a long
 * synchronous loop delays the timer.
 */

/** Samples RSS every `intervalMs` and keeps the highest value per phase. */
export class RssSampler {
  readonly #peaks = new Map<string, number>();
  readonly #starts = new Map<string, number>();
  #phase = "start";
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(intervalMs = 50) {
    this.#timer = setInterval(() => this.sample(), intervalMs);
  }

  /** Records the current RSS under the current phase. */
  sample(): void {
    const rss = Deno.memoryUsage().rss;
    if (rss > (this.#peaks.get(this.#phase) ?? 0)) this.#peaks.set(this.#phase, rss);
  }

  /** Starts a new phase (samples the end of the previous one and the start of this one). */
  phase(name: string): void {
    this.sample();
    this.#phase = name;
    this.#starts.set(name, Deno.memoryUsage().rss);
    this.sample();
  }

  /** Peak RSS of one phase in bytes (0 when never sampled). */
  peakOf(name: string): number {
    return this.#peaks.get(name) ?? 0;
  }

  /** Peak RSS over the whole run in bytes. */
  get peak(): number {
    return Math.max(0, ...this.#peaks.values());
  }

  /** Phase, RSS at its start and its peak, in the order the phases ran. */
  get phases(): [string, number, number][] {
    return [...this.#peaks].map(([name, peak]) => [name, this.#starts.get(name) ?? 0, peak]);
  }

  stop(): void {
    this.sample();
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
