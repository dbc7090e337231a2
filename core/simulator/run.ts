/**
 * Sends simulated batches to a running platform over the ingestion protocol: live (one window
 * every 20 s, or faster) or as a backfill over a past range. Each cell sends its windows in
 * order; all cells share at most `maxInFlight` requests. Network errors and 5xx answers are
 * retried with backoff and the same body; 4xx answers are final and reported.
 */
import { isOffline } from "./_context.ts";
import { hashString, mix, unit } from "./_random.ts";
import { generateBatch } from "./generate.ts";
import { type ProtocolVersion, WINDOW_MS } from "./protocol.ts";
import type { SimCell } from "./topology.ts";

/** A failed or partly refused delivery, reported through `onError`. */
export interface SendError {
  cellId: string;
  windowStartMs: number;
  batchId: string;
  /** HTTP status; absent for a network error or a dropped batch. */
  status?: number;
  /** The answer's body (first 500 characters) or the error's message. */
  message: string;
  /** Whether the same batch will be sent again. */
  retrying: boolean;
  /** 1 for the first try. */
  attempt: number;
}

/** A batch the platform answered with 200 or 207. */
export interface SendReport {
  cellId: string;
  windowStartMs: number;
  batchId: string;
  status: number;
  attempts: number;
}

/** Counts of one run. */
export interface SendStats {
  /** Batches answered 200 or 207. */
  sent: number;
  /** Attempts that failed with a network error or 5xx and were retried. */
  retried: number;
  /** Batches answered 4xx (not retried). */
  rejected: number;
  /** Live windows dropped because a cell's backlog was full. */
  dropped: number;
}

/** Backoff of retries: doubling from `initialDelayMs` up to `maxDelayMs`, +/-20 % jitter. */
export interface RetryOptions {
  initialDelayMs?: number;
  maxDelayMs?: number;
}

/** Options shared by `runLive` and `runBackfill`. */
export interface SendOptions {
  /** Origin of the platform, e.g. `http://localhost:8080`. */
  baseUrl: string;
  cells: readonly SimCell[];
  seed: number;
  /** Stops sending; in-flight requests are aborted, pending retries abandoned. */
  signal: AbortSignal;
  fetch?: typeof globalThis.fetch;
  /** Failures and partial refusals. Default: one line on stderr. */
  onError?: (error: SendError) => void;
  onSent?: (report: SendReport) => void;
  /** Requests in flight over all cells, default 8. */
  maxInFlight?: number;
  retry?: RetryOptions;
  /** Protocol version of the batches, default 2 (1: firmware that sends PQ values every 20 s). */
  protocol?: ProtocolVersion;
}

/** Options of `runLive`. */
export interface RunLiveOptions extends SendOptions {
  /** Simulated time at start (epoch ms), default now; the first window is the next whole one. */
  startMs?: number;
  /** Simulated seconds per real second, default 1: at 10 a window goes out every 2 s. */
  speed?: number;
  /** Windows a cell keeps while its sends fail (oldest dropped first), default 4320 (a day). */
  maxBacklog?: number;
}

/** Options of `runBackfill`. */
export interface BackfillOptions extends SendOptions {
  /** First window start (rounded up to 20 s), epoch ms. */
  fromMs: number;
  /** End of the range (exclusive), epoch ms. */
  toMs: number;
}

function defaultOnError(error: SendError): void {
  const status = error.status === undefined ? "network error" : `HTTP ${error.status}`;
  const next = error.retrying ? `, retrying (attempt ${error.attempt})` : "";
  console.error(
    `Simulator: cell ${error.cellId} window ${new Date(error.windowStartMs).toISOString()}: ` +
      `${status}${next}: ${error.message}`,
  );
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    signal.addEventListener("abort", done, { once: true });
  });
}

/** A counting semaphore for requests in flight. */
class Limiter {
  #free: number;
  #waiting: (() => void)[] = [];

  constructor(size: number) {
    this.#free = size;
  }

  acquire(): Promise<void> {
    if (this.#free > 0) {
      this.#free--;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  release(): void {
    const next = this.#waiting.shift();
    if (next !== undefined) next();
    else this.#free++;
  }
}

/** Delivers batches with retries; shared by live and backfill runs. */
class Sender {
  readonly stats: SendStats = { sent: 0, retried: 0, rejected: 0, dropped: 0 };
  readonly #url: string;
  readonly #limiter: Limiter;
  readonly #fetch: typeof globalThis.fetch;
  readonly #onError: (error: SendError) => void;
  readonly #initialDelayMs: number;
  readonly #maxDelayMs: number;

  constructor(readonly options: SendOptions) {
    this.#url = `${options.baseUrl.replace(/\/+$/, "")}/ingest/v1/batches`;
    const maxInFlight = options.maxInFlight ?? 8;
    if (!Number.isInteger(maxInFlight) || maxInFlight < 1) {
      throw new RangeError(`Cannot start the simulator: maxInFlight ${maxInFlight} is not >= 1`);
    }
    this.#limiter = new Limiter(maxInFlight);
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#onError = options.onError ?? defaultOnError;
    this.#initialDelayMs = options.retry?.initialDelayMs ?? 500;
    this.#maxDelayMs = options.retry?.maxDelayMs ?? 30_000;
  }

  get aborted(): boolean {
    return this.options.signal.aborted;
  }

  report(error: SendError): void {
    this.#onError(error);
  }

  #backoffMs(cellId: string, attempt: number): number {
    const base = Math.min(this.#maxDelayMs, this.#initialDelayMs * 2 ** (attempt - 1));
    return base * (0.8 + 0.4 * unit(mix(hashString(cellId), attempt)));
  }

  /** One POST; returns the status, or the error message of a network failure. */
  async #post(cell: SimCell, body: string): Promise<{ status: number; text: string } | string> {
    await this.#limiter.acquire();
    try {
      if (this.aborted) return "aborted";
      const response = await this.#fetch(this.#url, {
        method: "POST",
        headers: {
          "Authorization": `Bearer ${cell.credential}`,
          "Content-Type": "application/json",
        },
        body,
        signal: this.options.signal,
      });
      return { status: response.status, text: await response.text() };
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    } finally {
      this.#limiter.release();
    }
  }

  /** Sends the window's batch until it gets an answer below 500 or the run stops. */
  async deliver(cell: SimCell, windowStartMs: number): Promise<void> {
    const batch = generateBatch(cell, windowStartMs, this.options.seed, this.options.protocol);
    if (batch === null) return;
    const body = JSON.stringify(batch);
    const about = { cellId: cell.cellId, windowStartMs, batchId: batch.batch_id };
    for (let attempt = 1; !this.aborted; attempt++) {
      const answer = await this.#post(cell, body);
      if (this.aborted) return;
      if (typeof answer !== "string" && answer.status < 500) {
        const final = { ...about, status: answer.status, attempt, retrying: false };
        if (answer.status >= 300) {
          this.stats.rejected++;
          this.report({ ...final, message: answer.text.slice(0, 500) });
          return;
        }
        this.stats.sent++;
        if (answer.status === 207) this.report({ ...final, message: answer.text.slice(0, 500) });
        this.options.onSent?.({ ...about, status: answer.status, attempts: attempt });
        return;
      }
      this.stats.retried++;
      this.report(
        typeof answer === "string" ? { ...about, message: answer, retrying: true, attempt } : {
          ...about,
          status: answer.status,
          message: answer.text.slice(0, 500),
          retrying: true,
          attempt,
        },
      );
      await sleep(this.#backoffMs(cell.cellId, attempt), this.options.signal);
    }
  }
}

/** The windows one cell still has to send, delivered in order by one pump at a time. */
class CellQueue {
  readonly #pending: number[] = [];
  #running = false;
  done: Promise<void> = Promise.resolve();

  constructor(readonly cell: SimCell, readonly sender: Sender, readonly maxBacklog: number) {}

  push(windowStartMs: number): void {
    if (this.#pending.length >= this.maxBacklog) {
      const dropped = this.#pending.shift()!;
      this.sender.stats.dropped++;
      this.sender.report({
        cellId: this.cell.cellId,
        windowStartMs: dropped,
        batchId: "",
        message: `backlog of ${this.maxBacklog} windows full, oldest dropped`,
        retrying: false,
        attempt: 0,
      });
    }
    this.#pending.push(windowStartMs);
    if (!this.#running) {
      this.#running = true;
      this.done = this.#pump();
    }
  }

  async #pump(): Promise<void> {
    try {
      while (this.#pending.length > 0 && !this.sender.aborted) {
        await this.sender.deliver(this.cell, this.#pending[0]!);
        this.#pending.shift();
      }
    } finally {
      this.#running = false;
    }
  }
}

/**
 * Runs the cells live until `signal` aborts: simulated time starts at `startMs` (default now)
 * and runs `speed` times faster than real time, so a window completes every 20 s / `speed`;
 * then every online cell sends that window's batch with `POST ${baseUrl}/ingest/v1/batches`
 * and its credential. The platform refuses data more than 5 min ahead of its clock: with
 * `speed` > 1, start far enough in the past (use `runBackfill` to fill a past range at once).
 * Resolves with the counts once every request has finished.
 */
export async function runLive(options: RunLiveOptions): Promise<SendStats> {
  const speed = options.speed ?? 1;
  if (!(speed > 0) || !Number.isFinite(speed)) {
    throw new RangeError(`Cannot start the simulator: speed ${speed} is not a positive number`);
  }
  const sender = new Sender(options);
  const maxBacklog = options.maxBacklog ?? 4320;
  const queues = options.cells.map((cell) => new CellQueue(cell, sender, maxBacklog));
  const simStart = options.startMs ?? Math.floor(Date.now() / WINDOW_MS) * WINDOW_MS;
  const realStart = performance.now();
  const simNow = () => simStart + (performance.now() - realStart) * speed;
  let next = Math.ceil(simStart / WINDOW_MS) * WINDOW_MS;
  while (!sender.aborted) {
    await sleep((next + WINDOW_MS - simNow()) / speed, options.signal);
    if (sender.aborted) break;
    for (; next + WINDOW_MS <= simNow(); next += WINDOW_MS) {
      for (const queue of queues) if (!isOffline(queue.cell, next)) queue.push(next);
    }
  }
  await Promise.all(queues.map((queue) => queue.done));
  return sender.stats;
}

/**
 * Sends every window of [fromMs, toMs) for every cell (oldest first per cell, cells side by
 * side) and resolves with the counts when done or when `signal` aborts.
 */
export async function runBackfill(options: BackfillOptions): Promise<SendStats> {
  const sender = new Sender(options);
  const first = Math.ceil(options.fromMs / WINDOW_MS) * WINDOW_MS;
  await Promise.all(options.cells.map(async (cell) => {
    for (let w = first; w < options.toMs && !sender.aborted; w += WINDOW_MS) {
      await sender.deliver(cell, w);
    }
  }));
  return sender.stats;
}
