/**
 * The measurement store's journaled write path (store.ts): a group's record is appended to the
 * journal and the group answered once the record is synced; journaled groups reach DuckDB
 * behind the answers, in transactions of up to MAX_GROUP_ROWS rows that also record the journal
 * position they cover. Under load, groups gather GATHER_MS before their write; a group that
 * finds the writes idle starts one and is answered after it, so that a lone batch is visible to
 * queries at its answer. A failed write is tried again after RETRY_MS.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import type { Journal, JournalPosition } from "./journal.ts";
import { encodeGroup } from "./journal_codec.ts";
import type { SeriesIndex } from "./series_index.ts";
import {
  type Accepted,
  firstMarks,
  type NewSeries,
  type Pending,
  type PreviousMarks,
} from "./store_group.ts";
import type { PqFolds } from "./store_pq.ts";
import { PendingGroups } from "./store_queues.ts";
import { writeGroup } from "./store_write.ts";

/** A failed DuckDB write of journaled groups is tried again after this long. */
const RETRY_MS = 1_000;
/**
 * Under load, journaled groups gather this long before their DuckDB write, so that its fixed
 * costs (appender, commit) spread over thousands of rows instead of a few batches.
 */
const GATHER_MS = 100;

/** What the write path uses of the store. */
export interface JournaledWritesDeps {
  connection: DuckDBConnection;
  journal: Journal;
  index: SeriesIndex;
  folds: PqFolds;
  /** Runs `fn` alone on the writer connection (the store's lookups share it). */
  withWriter<T>(fn: () => Promise<T>): Promise<T>;
  /** True while the store reads memory again: no DuckDB write starts. */
  held(): boolean;
  /** A DuckDB write failed (a FATAL error invalidates the store). */
  failed(error: unknown): void;
  /** A failed write's retry is due. */
  retry(): void;
  /** A DuckDB write committed these groups; `previous`: each touched series' mark before. */
  committed(accepted: readonly Accepted[], previous: PreviousMarks): void;
  /** Writes the cells' own PQ records held (a lone group is answered after them too). */
  writeDeviceRecords(): Promise<unknown>;
}

/** Journaled groups on their way to DuckDB. */
export class JournaledWrites {
  /** Journaled groups not yet in DuckDB, oldest first. */
  readonly pending = new PendingGroups();
  /** How far the journal is in DuckDB (its measurements). */
  position: JournalPosition | null = null;
  readonly #deps: JournaledWritesDeps;
  /** The running DuckDB write of pending groups. */
  #flushing: Promise<void> | null = null;
  /** The next DuckDB write, when gathering. */
  #gather: ReturnType<typeof setTimeout> | undefined;
  #retry: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  constructor(deps: JournaledWritesDeps) {
    this.#deps = deps;
  }

  /** The running DuckDB write, if any. */
  get running(): Promise<void> | null {
    return this.#flushing;
  }

  /**
   * Journals a prepared group and calls `answer` once its record is synced, or after the DuckDB
   * write it starts when the writes were idle; `failed` when the journal could not take it.
   */
  add(
    accepted: Accepted[],
    newSeries: NewSeries[],
    answer: () => void,
    failed: (error: unknown) => void,
  ): void {
    const content = accepted.filter((a) =>
      a.rows.length || a.pq.rows.length || a.events.length || a.io.length
    );
    if (!content.length) return answer();
    // Idle: nothing written or waiting. Under load, groups keep finding others pending.
    const idle = !this.#flushing && !this.#gather && !this.pending.length;
    const pending = this.enqueue(content, newSeries, null);
    // Not awaited: the next group is prepared while this record is written, and the journal
    // syncs the records that meet in its queue together.
    const record = encodeGroup(content.map((a) => ({ ...a, pq: a.pq.rows })));
    this.#deps.journal.append(record).then((end) => {
      pending.end = end;
      // Journaled: durable whatever the DuckDB write does.
      // Idle, the cells' own PQ records are written at once too (under load, every 10 s).
      if (idle) {
        void this.start().then(() => this.#deps.writeDeviceRecords()).then(answer, answer);
      } else {
        this.#gatherThenStart();
        answer();
      }
    }, failed);
  }

  /** A journaled group: noted in memory at once, queued for its DuckDB write. */
  enqueue(accepted: Accepted[], newSeries: NewSeries[], end: JournalPosition | null): Pending {
    return this.pending.push(accepted, newSeries, this.#deps.index.remember(accepted), end);
  }

  /**
   * Writes pending groups (up to MAX_GROUP_ROWS rows) to DuckDB in one transaction; starts the
   * next write when more wait. Returns the running write when one runs.
   */
  start(): Promise<void> {
    if (this.#flushing) return this.#flushing;
    // Only synced groups, in journal order: the position written with them must be on disk.
    if (!this.pending.firstSynced || this.#deps.held()) return Promise.resolve();
    this.cancelGather();
    const flushing = (async () => {
      try {
        await this.#write(this.pending.take());
      } finally {
        // In the same turn as the write's end: a caller after it starts the next write.
        this.#flushing = null;
        if (this.pending.length) this.#gatherThenStart();
      }
    })();
    this.#flushing = flushing;
    return flushing;
  }

  /** No gathered write starts (one may be running). */
  cancelGather(): void {
    clearTimeout(this.#gather);
    this.#gather = undefined;
  }

  /** Stops retrying failed writes and gathering; the journal keeps what DuckDB lacks. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#retry);
    this.cancelGather();
  }

  async #write(take: Pending[]): Promise<void> {
    const { connection, folds } = this.#deps;
    const accepted = take.flatMap((g) => g.accepted);
    const end = take.at(-1)!.end!;
    try {
      await this.#deps.withWriter(async () => {
        // A replay finds these rows' PQ values and records from the position before them on.
        const heldFrom = this.position ?? { segment: 0, offset: 0 };
        const pq = accepted.some((a) => a.pq.rows.length || a.rows.some((row) => row.pq));
        const foldFrom = folds.heldFrom(pq ? heldFrom : end);
        await writeGroup(connection, accepted, take.flatMap((g) => g.newSeries), end, foldFrom);
        for (const a of accepted) {
          folds.add(a.ids, a.rows, heldFrom);
          folds.addDevices(a.pq.ids, a.pq.rows, heldFrom);
        }
        this.position = end;
      });
    } catch (error) {
      this.pending.restore(take);
      this.#deps.failed(error);
      this.#scheduleRetry();
      throw error;
    }
    this.pending.written(take);
    this.#deps.committed(accepted, firstMarks(take));
  }

  /** Starts a DuckDB write of the pending groups after GATHER_MS (unless one is on its way). */
  #gatherThenStart(): void {
    if (this.#gather || this.#flushing || this.#retry || this.#closed) return;
    this.#gather = setTimeout(() => {
      this.#gather = undefined;
      void this.start().catch(() => undefined);
    }, GATHER_MS);
  }

  #scheduleRetry(): void {
    if (this.#closed || this.#retry) return;
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      this.#deps.retry();
    }, RETRY_MS);
  }
}
