/**
 * The measurement store: durable, idempotent, atomic writes of validated batches into DuckDB.
 * Group commit: batches arriving while a group is written wait for the next one; a cell appears
 * at most once per group, so a retry never races its own first attempt; one group at a time
 * keeps the in-memory watermarks exact.
 *
 * With an ingest journal (production), a group is acknowledged once its journal record is
 * synced (journal.ts); journaled groups reach DuckDB behind the acknowledgements, in
 * transactions of up to MAX_GROUP_ROWS rows that also record the journal position they cover,
 * and when the store opens, the journal's later records (a crash) are written first. A group that
 * finds DuckDB's writer idle is answered after the DuckDB write it starts, so a lone batch is
 * visible to queries when its answer arrives; under load, answers wait for the journal only.
 * Without a journal (unit tests), each group is one DuckDB transaction before its answers.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import type { LatestValues } from "../monitoring/latest.ts";
import { isFatal } from "../time_series_store.ts";
import { comparePositions, type Journal, type JournalPosition } from "./journal.ts";
import { encodeGroup } from "./journal_codec.ts";
import { migrate } from "./schema.ts";
import { SeriesIndex } from "./series_index.ts";
import {
  type Accepted,
  type AppendResult,
  firstMarks,
  FOLD_GRACE_MS,
  type NewSeries,
  type Pending,
  type PqTouched,
  type PreviousMarks,
  type SlotsTouched,
  touchedSlots,
  type ValidBatch,
  type Waiting,
} from "./store_group.ts";
import { type PqChanges, PqFolds } from "./store_pq.ts";
import { decodedGroup, foldAgain, journalMarks } from "./store_replay.ts";
import { PendingGroups, WaitingBatches } from "./store_queues.ts";
import { prepareGroup, writeGroup } from "./store_write.ts";

export {
  type AppendResult,
  type CommittedGroup,
  FOLD_GRACE_MS,
  SLOT_MS,
  type SlotsTouched,
  TouchedSlots,
  type ValidBatch,
} from "./store_group.ts";
export { MAX_PENDING_BYTES, MAX_WAITING_BYTES } from "./store_queues.ts";
/** A failed DuckDB write of journaled groups is tried again after this long. */
const RETRY_MS = 1_000;
/**
 * Under load, journaled groups gather this long before their DuckDB write, so that its fixed
 * costs (appender, commit) spread over thousands of rows instead of a few batches.
 */
const GATHER_MS = 100;

/** How the store is opened. */
export interface MeasurementStoreOptions {
  /**
   * Reopens the DuckDB instance after a FATAL error invalidated it (TimeSeriesStore.reopen);
   * without one, such an error stays until a restart.
   */
  reopen?: () => Promise<void>;
  /** The ingest journal: answers after its sync, DuckDB writes behind them. */
  journal?: Journal;
}

/** Durable storage of 20-s measurements with per-series watermarks for cheap deduplication. */
export class MeasurementStore {
  readonly #connection: DuckDBConnection;
  /** Series ids, watermarks, I/O marks and the newest values. */
  readonly #index = new SeriesIndex();
  /** Protocol v1 PQ values folded, not yet in `pq_10min`. */
  readonly #folds = new PqFolds();
  /** How far the journal is in DuckDB (its measurements). */
  #written: JournalPosition | null = null;
  #pqListeners: PqTouched[] = [];
  readonly #waiting = new WaitingBatches();
  #draining = false;
  #listeners: SlotsTouched[] = [];
  /** The newest value of every series, for live status without a query. */
  readonly latest: LatestValues = this.#index.latest;

  /** Set by a FATAL error: the store reopens DuckDB before its next write. */
  #invalidated = false;
  /**
   * Set when a journal write failed: memory already holds that group (watermarks), so it is
   * read again from DuckDB and the journal before the next write.
   */
  #stale = false;
  /** While memory is read again: no DuckDB write of pending groups starts. */
  #holdWrites = false;
  #recovering: Promise<void> | null = null;
  readonly #reopen: () => Promise<void>;
  readonly #journal: Journal | null;
  /** Journaled groups not yet in DuckDB, oldest first. */
  readonly #pending = new PendingGroups();
  /** The running DuckDB write of pending groups. */
  #flushing: Promise<void> | null = null;
  /** The last operation queued on the writer connection (see #withWriter). */
  #writer: Promise<unknown> = Promise.resolve();
  /** The next DuckDB write, when gathering. */
  #gather: ReturnType<typeof setTimeout> | undefined;
  #retry: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  private constructor(connection: DuckDBConnection, options: MeasurementStoreOptions) {
    this.#connection = connection;
    this.#reopen = options.reopen ??
      (() => Promise.reject(new Error("The store cannot reopen")));
    this.#journal = options.journal ?? null;
  }

  /**
   * Creates the tables when absent, loads series ids, watermarks and latest values, and writes
   * the journal's records that DuckDB lacks (a crash before their DuckDB write).
   */
  static async open(
    connection: DuckDBConnection,
    options: MeasurementStoreOptions = {},
  ): Promise<MeasurementStore> {
    await migrate(connection);
    const store = new MeasurementStore(connection, options);
    await store.#load();
    await store.#replay();
    return store;
  }

  /** Loads series ids, watermarks and the latest values from the file. */
  async #load(): Promise<void> {
    this.#folds.clear();
    await this.#index.load(this.#connection);
    // Watermarks older than the file's newest hour are found behind the start. Should that
    // fail, their series stay exact (looked up) until the next load.
    void this.#index.resolveMarks(this.#connection, (fn) => this.#withWriter(fn))
      .catch(() => undefined);
  }

  /** Writes the journal's records after the position DuckDB holds (all of them are acknowledged). */
  async #replay(): Promise<void> {
    const journal = this.#journal;
    if (!journal) return;
    this.#pending.clear();
    this.#holdWrites = false;
    const { written, foldFrom, from } = await journalMarks(this.#connection);
    this.#written = written;
    const records = await journal.recover(from);
    const stored = records.filter((r) => written && comparePositions(r.end, written) <= 0);
    await foldAgain(
      this.#connection,
      this.#index,
      this.#folds,
      stored.map((r) => r.payload),
      foldFrom ?? { segment: 0, offset: 0 },
    );
    for (const record of records.slice(stored.length)) {
      const { accepted, newSeries } = await this.#prepare(decodedGroup(record.payload));
      this.#enqueue(accepted, newSeries, record.end);
    }
    await this.flush();
  }

  /** Registers a listener for the slots each committed group touched. */
  onSlotsTouched(listener: SlotsTouched): void {
    this.#listeners.push(listener);
  }

  /** Registers a listener for the PQ records each write stored (device records, folds). */
  onPqChanged(listener: PqTouched): void {
    this.#pqListeners.push(listener);
  }

  /**
   * Writes the cells' own PQ records (protocol v2) held in memory and merges the folds of
   * protocol v1 PQ values whose slot ended FOLD_GRACE_MS before `now` into `pq_10min` (the
   * streaming core calls it every 10 s, before the aggregation). Returns how many slots got
   * records.
   */
  writeFolds(now = Date.now()): Promise<number> {
    return this.#writePq(now - FOLD_GRACE_MS);
  }

  /**
   * Writes the cells' own PQ records held and the folds of slots ended by `closedBefore`;
   * returns how many slots got records.
   */
  async #writePq(closedBefore: number): Promise<number> {
    if (!this.#folds.size || this.#holdWrites || this.#invalidated) return 0;
    let changes: PqChanges;
    try {
      changes = await this.#withWriter(() =>
        this.#folds.write(this.#connection, closedBefore, this.#written)
      );
    } catch (error) {
      if (isFatal(error)) this.#invalidated = true;
      throw error;
    }
    if (changes.size) {
      for (const listener of this.#pqListeners) listener(changes);
      this.#release();
    }
    return changes.size;
  }

  /** Frees the journal's segments DuckDB holds, except what folds held in memory need. */
  #release(): void {
    const hold = this.#folds.heldFrom(this.#written);
    if (hold) void this.#journal?.release(hold).catch(() => undefined);
  }

  /** The newest stored timestamp of any series (epoch ms), or null when the store is empty. */
  newestTimestamp(): number | null {
    return this.#index.newestTimestamp();
  }

  /** How many series (cell, feeder, phase) have sent data. */
  get seriesCount(): number {
    return this.#index.size;
  }

  /** The series id of (cell, feeder, phase), or undefined when it never sent data. */
  seriesId(cellId: string, feeder: number, phase: number): number | undefined {
    return this.#index.seriesId(cellId, feeder, phase);
  }

  /**
   * Stores the records of one cell's batch atomically; resolves once they are durable (journal
   * or DuckDB), rejects when nothing of the batch was stored.
   */
  append(cellId: string, batch: ValidBatch): Promise<AppendResult> {
    if (
      !batch.measurements.length && !batch.pq?.length && !batch.events?.length &&
      !batch.io?.length
    ) {
      return Promise.resolve({ accepted: 0, duplicates: 0 });
    }
    return new Promise((resolve, reject) => {
      if (!this.#waiting.admit(cellId, batch, resolve, reject)) {
        reject(new Error("Ingest queue full: batches arrive faster than they are stored"));
      } else if (!this.#draining) void this.#drain();
    });
  }

  /** Resolves once every acknowledged group is in DuckDB; rejects while DuckDB cannot write. */
  async flush(): Promise<void> {
    await this.#journal?.idle();
    for (;;) {
      // A recovery reads memory again and writes what the journal holds: wait for it.
      if (this.#holdWrites) await this.#recovering?.catch(() => undefined);
      else if (this.#flushing) await this.#flushing;
      else if (this.#pending.firstSynced) await this.#startFlush();
      else break;
    }
    // The cells' own PQ records are acknowledged records too (folds wait for their slot).
    if (this.#folds.devices) await this.#writePq(-Infinity);
  }

  /**
   * Journaled groups not yet in DuckDB, their rows and estimated memory, and the estimated
   * memory of batches waiting for a group (operations, benchmarks).
   */
  get backlog(): { groups: number; rows: number; bytes: number; waitingBytes: number } {
    return { ...this.#pending.backlog, waitingBytes: this.#waiting.bytes };
  }

  /** Stops retrying failed DuckDB writes; the journal keeps what they lacked for the next open. */
  close(): void {
    this.#closed = true;
    this.#index.stopResolving();
    clearTimeout(this.#retry);
    clearTimeout(this.#gather);
  }

  /** Writes groups until no batch waits. */
  async #drain(): Promise<void> {
    this.#draining = true;
    try {
      while (this.#waiting.length) {
        const group = this.#waiting.takeGroup();
        try {
          await this.#recoverIfInvalidated();
          if (this.#journal) await this.#journaled(group);
          else await this.#direct(group);
        } catch (error) {
          if (isFatal(error)) this.#invalidated = true;
          for (const w of group) w.reject(error);
        }
      }
    } finally {
      this.#draining = false;
    }
  }

  /**
   * After a FATAL error: reopens DuckDB and reloads memory from the file, then writes what the
   * journal holds beyond it. A FATAL error can follow a durable commit (DuckDB: "COMMIT
   * succeeded and is durable, but the autocheckpoint failed"): reloading makes the cell's resend
   * of that batch a known duplicate.
   */
  #recoverIfInvalidated(): Promise<void> {
    if (!this.#invalidated && !this.#stale) return Promise.resolve();
    this.#recovering ??= (async () => {
      try {
        await this.#recover();
      } finally {
        this.#holdWrites = false;
        this.#recovering = null;
      }
    })();
    return this.#recovering;
  }

  async #recover(): Promise<void> {
    // Nothing may write meanwhile: the journal's records in flight, the running DuckDB write.
    this.#holdWrites = true;
    clearTimeout(this.#gather);
    this.#gather = undefined;
    await this.#journal?.idle();
    await this.#flushing?.catch(() => undefined);
    if (this.#invalidated) await this.#reopen();
    this.#invalidated = false;
    this.#stale = false;
    await this.#load();
    await this.#replay();
  }

  /** Without a journal: the group's DuckDB transaction, then its answers. */
  async #direct(group: readonly Waiting[]): Promise<void> {
    const { accepted, newSeries, results } = await this.#prepare(group);
    try {
      await this.#withWriter(async () => {
        await writeGroup(this.#connection, accepted, newSeries, null);
        for (const a of accepted) {
          this.#folds.add(a.ids, a.rows, null);
          this.#folds.addDevices(a.pq.ids, a.pq.rows, null);
        }
      });
    } catch (error) {
      this.#index.forget(newSeries);
      throw error;
    }
    this.#notify(accepted, this.#index.remember(accepted));
    group.forEach((w, k) => w.resolve(results[k]!));
  }

  /**
   * With a journal: the group's record is synced, then the group is answered. A group that finds
   * the store idle (no DuckDB write running or waiting) starts a write and is answered after it,
   * so that a lone batch is visible to queries at its answer; under load it is answered at once
   * and joins the write that gathers behind the running one.
   */
  async #journaled(group: readonly Waiting[]): Promise<void> {
    if (this.#pending.full) {
      throw new Error("Ingest backlog full: DuckDB cannot keep up or cannot write");
    }
    const { accepted, newSeries, results } = await this.#prepare(group);
    const answer = () => group.forEach((w, k) => w.resolve(results[k]!));
    const content = accepted.filter((a) =>
      a.rows.length || a.pq.rows.length || a.events.length || a.io.length
    );
    if (!content.length) return answer();
    // Idle: nothing written or waiting. Under load, groups keep finding others pending.
    const idle = !this.#flushing && !this.#gather && !this.#pending.length;
    const pending = this.#enqueue(content, newSeries, null);
    // Not awaited: the next group is prepared while this record is written, and the journal
    // syncs the records that meet in its queue together.
    const record = encodeGroup(content.map((a) => ({ ...a, pq: a.pq.rows })));
    this.#journal!.append(record).then((end) => {
      pending.end = end;
      // Journaled: durable whatever the DuckDB write does.
      // Idle, the cells' own PQ records are written at once too (under load, every 10 s).
      if (idle) {
        void this.#startFlush().then(() => this.#folds.devices ? this.#writePq(-Infinity) : 0)
          .then(answer, answer);
      } else {
        this.#gatherThenFlush();
        answer();
      }
    }, (error) => {
      // Memory holds the group; the journal does not: read both again before the next group.
      this.#stale = true;
      for (const w of group) w.reject(error);
    });
  }

  /** Starts a DuckDB write of the pending groups after GATHER_MS (unless one is on its way). */
  #gatherThenFlush(): void {
    if (this.#gather || this.#flushing || this.#retry || this.#closed) return;
    this.#gather = setTimeout(() => {
      this.#gather = undefined;
      void this.#startFlush().catch(() => undefined);
    }, GATHER_MS);
  }

  /** A journaled group: noted in memory at once, queued for its DuckDB write. */
  #enqueue(accepted: Accepted[], newSeries: NewSeries[], end: JournalPosition | null): Pending {
    return this.#pending.push(accepted, newSeries, this.#index.remember(accepted), end);
  }

  /**
   * Writes pending groups (up to MAX_GROUP_ROWS rows) to DuckDB in one transaction; starts the
   * next write when more wait. Returns the running write when one runs.
   */
  #startFlush(): Promise<void> {
    if (this.#flushing) return this.#flushing;
    // Only synced groups, in journal order: the position written with them must be on disk.
    if (!this.#pending.firstSynced || this.#holdWrites) return Promise.resolve();
    clearTimeout(this.#gather);
    this.#gather = undefined;
    const take = this.#pending.take();
    const run = async () => {
      const accepted = take.flatMap((g) => g.accepted);
      const end = take.at(-1)!.end!;
      try {
        await this.#withWriter(async () => {
          // A replay finds these rows' PQ values and records from the position before them on.
          const heldFrom = this.#written ?? { segment: 0, offset: 0 };
          const pq = accepted.some((a) => a.pq.rows.length || a.rows.some((row) => row.pq));
          const foldFrom = this.#folds.heldFrom(pq ? heldFrom : end);
          await writeGroup(
            this.#connection,
            accepted,
            take.flatMap((g) => g.newSeries),
            end,
            foldFrom,
          );
          for (const a of accepted) {
            this.#folds.add(a.ids, a.rows, heldFrom);
            this.#folds.addDevices(a.pq.ids, a.pq.rows, heldFrom);
          }
          this.#written = end;
        });
      } catch (error) {
        this.#pending.restore(take);
        if (isFatal(error)) this.#invalidated = true;
        this.#scheduleRetry();
        throw error;
      }
      this.#pending.written(take);
      this.#notify(accepted, firstMarks(take));
      this.#release();
    };
    const flushing = (async () => {
      try {
        await run();
      } finally {
        // In the same turn as the write's end: a caller after it starts the next write.
        this.#flushing = null;
        if (this.#pending.length) this.#gatherThenFlush();
      }
    })();
    this.#flushing = flushing;
    return flushing;
  }

  #scheduleRetry(): void {
    if (this.#closed || this.#retry) return;
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      // A reopen must not run under a group being prepared: the drain loop does it then.
      const ready = this.#draining ? Promise.resolve() : this.#recoverIfInvalidated();
      void ready.then(() => this.flush()).catch(() => undefined);
    }, RETRY_MS);
  }

  /** Series ids for a group's records, and what is new in them (store_write.ts). */
  #prepare(group: readonly { cellId: string; batch: ValidBatch }[]) {
    return prepareGroup(group, {
      connection: this.#connection,
      index: this.#index,
      isHeldRecord: (key) => this.#folds.hasDevice(key),
      flush: () => this.flush(),
      withWriter: (fn) => this.#withWriter(fn),
    });
  }

  /**
   * Runs `fn` alone on the writer connection: a lookup never lands inside a DuckDB write of
   * pending groups (it would miss rows appended but not yet flushed), nor a write in a lookup.
   */
  #withWriter<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#writer.then(fn, fn);
    this.#writer = run.catch(() => undefined);
    return run;
  }

  /** Tells the listeners which slots a DuckDB write touched, with its rows. */
  #notify(accepted: readonly Accepted[], previous: PreviousMarks): void {
    const slots = touchedSlots(accepted, previous);
    if (slots) { for (const listener of this.#listeners) listener(slots); }
  }
}
