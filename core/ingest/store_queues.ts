/**
 * The measurement store's two queues, each bounded by the estimated memory of its rows
 * (batchBytes), not by a count: batches waiting for the next group, and journaled groups
 * waiting for their DuckDB write.
 */
import type { JournalPosition } from "./journal.ts";
import {
  type Accepted,
  type AppendResult,
  batchBytes,
  type NewSeries,
  type Pending,
  type PreviousMarks,
  takeGroup,
  takePending,
  type ValidBatch,
  type Waiting,
} from "./store_group.ts";

/**
 * Estimated memory of journaled groups not yet in DuckDB beyond which new batches are refused
 * (503: the cell resends later). Bounds memory while DuckDB cannot write, e.g. on a full disk
 * (about 600,000 rows of protocol v2).
 */
export const MAX_PENDING_BYTES = 160 * 2 ** 20;
/**
 * Estimated memory of batches waiting for the group being prepared or journaled beyond which
 * new batches are refused (503) instead of queued: the HTTP server takes as many requests as
 * clients open, so this queue is bounded here.
 */
export const MAX_WAITING_BYTES = 64 * 2 ** 20;

/** Batches waiting for the next group. */
export class WaitingBatches {
  #items: Waiting[] = [];
  #bytes = 0;

  constructor(private readonly maxBytes = MAX_WAITING_BYTES) {}

  get length(): number {
    return this.#items.length;
  }

  /** Estimated memory of the batches held. */
  get bytes(): number {
    return this.#bytes;
  }

  /**
   * Queues a batch; false (nothing queued) when it would pass the bound. A batch alone is
   * always taken, however large: its size is bounded by the request's.
   */
  admit(
    cellId: string,
    batch: ValidBatch,
    resolve: (result: AppendResult) => void,
    reject: (error: unknown) => void,
  ): boolean {
    const bytes = batchBytes(batch);
    if (this.#items.length && this.#bytes + bytes > this.maxBytes) return false;
    this.#bytes += bytes;
    this.#items.push({ cellId, batch, bytes, resolve, reject });
    return true;
  }

  /** Takes the next group (a cell at most once, up to MAX_GROUP_ROWS rows). */
  takeGroup(): Waiting[] {
    const [group, rest] = takeGroup(this.#items);
    this.#items = rest;
    for (const w of group) this.#bytes -= w.bytes;
    return group;
  }
}

/** Journaled groups not yet in DuckDB, oldest first, with their rows and estimated memory. */
export class PendingGroups {
  #groups: Pending[] = [];
  #rows = 0;
  #bytes = 0;

  constructor(private readonly maxBytes = MAX_PENDING_BYTES) {}

  get length(): number {
    return this.#groups.length;
  }

  /** Whether new batches are refused until DuckDB catches up. */
  get full(): boolean {
    return this.#bytes > this.maxBytes;
  }

  /** Whether the oldest group is synced to the journal (a DuckDB write may take it). */
  get firstSynced(): boolean {
    return !!this.#groups[0]?.end;
  }

  get backlog(): { groups: number; rows: number; bytes: number } {
    return { groups: this.#groups.length, rows: this.#rows, bytes: this.#bytes };
  }

  /** Forgets every group (the journal's replay queues them again). */
  clear(): void {
    this.#groups = [];
    this.#rows = 0;
    this.#bytes = 0;
  }

  /** Queues a group; `end` is set once its journal record is synced. */
  push(
    accepted: Accepted[],
    newSeries: NewSeries[],
    previous: PreviousMarks,
    end: JournalPosition | null,
  ): Pending {
    const rows = accepted.reduce((n, a) => n + a.rows.length + a.pq.rows.length, 0);
    const bytes = accepted.reduce(
      (n, a) => n + batchBytes({ measurements: a.rows, pq: a.pq.rows, events: a.events, io: a.io }),
      0,
    );
    const pending: Pending = { accepted, newSeries, previous, end, rows, bytes };
    this.#groups.push(pending);
    this.#rows += rows;
    this.#bytes += bytes;
    return pending;
  }

  /**
   * Takes the synced groups of the next DuckDB write (takePending); they still count until
   * `written`, or go back to the front with `restore`.
   */
  take(): Pending[] {
    return takePending(this.#groups);
  }

  /** Puts groups taken back to the front (their write failed). */
  restore(taken: readonly Pending[]): void {
    this.#groups.unshift(...taken);
  }

  /** Stops counting groups taken once they are in DuckDB. */
  written(taken: readonly Pending[]): void {
    for (const g of taken) {
      this.#rows -= g.rows;
      this.#bytes -= g.bytes;
    }
  }
}
