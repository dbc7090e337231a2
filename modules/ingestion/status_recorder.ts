/**
 * The device status cells report with their batches (firmware, GPS fix, GSM signal) and when
 * they were last seen. A status is written when it changes, else at most once a minute per
 * cell, and all that are due go out in one statement every two seconds: at 5,000 cells a write
 * per batch would cost the relational database more than the batch costs the time-series store.
 */
import type { DeviceStatus } from "../grid/mod.ts";

/** Where statuses go (CellsService.recordStatuses). */
export type StatusSink = (
  entries: readonly { cellId: string; status: DeviceStatus; at: Date }[],
) => Promise<void>;

/** A cell's status is written again after this long even when unchanged ("last seen"). */
export const STATUS_EVERY_MS = 60_000;
const FLUSH_MS = 2_000;

interface Known {
  text: string;
  writtenAt: number;
}

/** Collects statuses and writes the due ones in bulk. */
export class StatusRecorder {
  readonly #known = new Map<string, Known>();
  readonly #due = new Map<string, { status: DeviceStatus; at: number }>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly sink: StatusSink,
    private readonly onError: (error: unknown) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** Notes the status a cell sent now; it is written at the next flush when due. */
  note(cellId: string, status: DeviceStatus): void {
    const at = this.now();
    const text = JSON.stringify(status);
    const known = this.#known.get(cellId);
    if (known && known.text === text && at - known.writtenAt < STATUS_EVERY_MS) return;
    this.#known.set(cellId, { text, writtenAt: at });
    this.#due.set(cellId, { status, at });
  }

  /** Writes every due status now; resolves when written (or failed and logged). */
  flush(): Promise<void> {
    this.#flushing = this.#flushing.then(async () => {
      if (!this.#due.size) return;
      const entries = [...this.#due].map(([cellId, { status, at }]) => ({
        cellId,
        status,
        at: new Date(at),
      }));
      this.#due.clear();
      try {
        await this.sink(entries);
      } catch (error) {
        // Written again at the cell's next batch: forget that these were written.
        for (const { cellId } of entries) this.#known.delete(cellId);
        this.onError(error);
      }
    });
    return this.#flushing;
  }

  /** Flushes every two seconds until `stop`. */
  start(): void {
    this.#timer ??= setInterval(() => void this.flush(), FLUSH_MS);
  }

  /** Stops the timer and writes what is due. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.flush();
  }
}
