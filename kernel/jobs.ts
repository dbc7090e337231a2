/**
 * Long work (reports, exports, downloads from cells) as jobs: the module's table holds each job's
 * state, so a job survives a restart; this runner claims runnable rows, runs them with an abort
 * signal, throttles their progress writes, and lets a module cancel one.
 *
 * The module owns every status change: `claim` moves rows to running atomically, `run` ends them
 * (done), `fail` records a reason, `recover` decides at start what happens to rows a dead process
 * left running (requeue or fail, never hang). A module cancels a job by marking its row cancelled
 * and then calling `cancel(id)`; an aborted job (cancelled, or the runner closing) is not failed:
 * its row keeps what the module wrote, and a row still running at close is `recover`'s at the
 * next start.
 */
import type { Logger } from "./logger.ts";

/** What a running job sees. */
export interface JobContext {
  /** Aborted by `cancel(id)` or when the runner closes. */
  signal: AbortSignal;
  /** Reports progress (0-100) and an optional stage; written at most once a second. */
  progress(percent: number, stage?: string): void;
}

/** A module's job table, as the runner uses it. */
export interface JobQueue<J extends { id: string }> {
  /** Atomically moves up to `limit` runnable rows to running and returns them. */
  claim(limit: number, now: Date): Promise<J[]>;
  /** The work; it stops soon after `ctx.signal` aborts. Throwing (not aborted) ends it through `fail`. */
  run(job: J, ctx: JobContext): Promise<void>;
  /** Marks the job failed with a reason. */
  fail(job: J, error: unknown): Promise<void>;
  /** Persists progress. */
  saveProgress?(job: J, percent: number, stage?: string): Promise<void>;
  /** At start: rows left running by a process that died. */
  recover(): Promise<void>;
}

export interface JobRunnerOptions {
  /** Used in logs. */
  name: string;
  /** Jobs run at once (default 1). */
  concurrency?: number;
  /** How often the table is polled for due jobs (default 5 s); `wake()` polls at once. */
  pollMs?: number;
  /** Minimum time between two progress writes of one job (default 1 s). */
  progressEveryMs?: number;
  logger: Logger;
}

interface Running {
  controller: AbortController;
  done: Promise<void>;
}

/** Runs a module's jobs in this process. */
export class JobRunner<J extends { id: string }> {
  readonly #queue: JobQueue<J>;
  readonly #concurrency: number;
  readonly #pollMs: number;
  readonly #progressEveryMs: number;
  readonly #logger: Logger;
  readonly #running = new Map<string, Running>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #polling: Promise<void> | undefined;
  #again = false;
  #closed = false;

  constructor(queue: JobQueue<J>, options: JobRunnerOptions) {
    this.#queue = queue;
    this.#concurrency = Math.max(1, options.concurrency ?? 1);
    this.#pollMs = options.pollMs ?? 5_000;
    this.#progressEveryMs = options.progressEveryMs ?? 1_000;
    this.#logger = options.logger.child({ jobs: options.name });
  }

  /** Recovers what a dead process left running, then starts polling. */
  async start(): Promise<void> {
    await this.#queue.recover();
    this.wake();
  }

  /** Polls now (after a job was created or became due). */
  wake(): void {
    if (this.#closed) return;
    if (this.#polling) {
      this.#again = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#polling = this.#poll().finally(() => {
      this.#polling = undefined;
      if (this.#again) {
        this.#again = false;
        this.wake();
      } else this.#schedule();
    });
  }

  /** Aborts a running job; false when it is not running here. */
  cancel(id: string): boolean {
    const running = this.#running.get(id);
    if (!running) return false;
    running.controller.abort(new DOMException("The job was cancelled", "AbortError"));
    return true;
  }

  /** The ids of the jobs running now. */
  runningIds(): string[] {
    return [...this.#running.keys()];
  }

  /** Resolves when no job is running (tests). */
  async idle(): Promise<void> {
    while (this.#polling || this.#running.size) {
      await this.#polling;
      await Promise.all([...this.#running.values()].map((r) => r.done));
    }
  }

  /** Stops polling, aborts the running jobs and waits for them to end. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    await this.#polling;
    for (const running of this.#running.values()) {
      running.controller.abort(new DOMException("The platform is stopping", "AbortError"));
    }
    await Promise.all([...this.#running.values()].map((r) => r.done));
  }

  #schedule(): void {
    if (this.#closed) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.wake(), this.#pollMs);
  }

  async #poll(): Promise<void> {
    const free = this.#concurrency - this.#running.size;
    if (free <= 0) return;
    let jobs: J[];
    try {
      jobs = await this.#queue.claim(free, new Date());
    } catch (error) {
      this.#logger.error("Claiming jobs failed", { error });
      return;
    }
    for (const job of jobs) this.#launch(job);
  }

  #launch(job: J): void {
    const controller = new AbortController();
    let last = 0;
    let pending: Promise<void> = Promise.resolve();
    const ctx: JobContext = {
      signal: controller.signal,
      progress: (percent, stage) => {
        const save = this.#queue.saveProgress;
        const now = Date.now();
        if (!save || now - last < this.#progressEveryMs) return;
        last = now;
        const value = Math.max(0, Math.min(100, percent));
        pending = pending.then(() => save.call(this.#queue, job, value, stage)).catch((error) =>
          this.#logger.warn("Saving a job's progress failed", { id: job.id, error })
        );
      },
    };
    const done = (async () => {
      try {
        await this.#queue.run(job, ctx);
      } catch (error) {
        await pending;
        if (!controller.signal.aborted) {
          this.#logger.warn("A job failed", { id: job.id, error });
          await this.#queue.fail(job, error).catch((failError) =>
            this.#logger.error("Marking a job failed failed", { id: job.id, error: failError })
          );
        }
      } finally {
        await pending;
        this.#running.delete(job.id);
        // A slot is free: look for the next job at once.
        if (!this.#closed) this.wake();
      }
    })();
    this.#running.set(job.id, { controller, done });
  }
}
