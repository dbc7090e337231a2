/**
 * The measurement store: durable, idempotent, atomic writes of validated batches into DuckDB.
 * Group commit: batches arriving while a group is written wait for the next one; a cell appears
 * at most once per group, so a retry never races its own first attempt; one group at a time
 * keeps the in-memory watermarks exact.
 *
 * With an ingest journal (production), a group is acknowledged once its journal record is
 * synced, and journaled groups reach DuckDB behind the acknowledgements (store_writes.ts); when
 * the store opens, the journal's later records (a crash) are written first. Without a journal
 * (unit tests), each group is one DuckDB transaction before its answers.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import type { LatestValues } from "../monitoring/latest.ts";
import { isFatal } from "../time_series_store.ts";
import { comparePositions, type Journal } from "./journal.ts";
import { migrate } from "./schema.ts";
import { SeriesIndex } from "./series_index.ts";
import {
  type Accepted,
  type AppendResult,
  FOLD_GRACE_MS,
  type PqTouched,
  type PreviousMarks,
  type SlotsTouched,
  touchedSlots,
  type ValidBatch,
  type Waiting,
} from "./store_group.ts";
import { type PqChanges, PqFolds } from "./store_pq.ts";
import { decodedGroup, foldAgain, journalMarks } from "./store_replay.ts";
import { WaitingBatches } from "./store_queues.ts";
import { prepareGroup, writeGroup } from "./store_write.ts";
import { JournaledWrites } from "./store_writes.ts";

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
  /** With a journal: the journaled groups on their way to DuckDB (store_writes.ts). */
  readonly #writes: JournaledWrites | null;
  /** The last operation queued on the writer connection (see #withWriter). */
  #writer: Promise<unknown> = Promise.resolve();

  private constructor(connection: DuckDBConnection, options: MeasurementStoreOptions) {
    this.#connection = connection;
    this.#reopen = options.reopen ??
      (() => Promise.reject(new Error("The store cannot reopen")));
    this.#journal = options.journal ?? null;
    this.#writes = this.#journal && new JournaledWrites({
      connection,
      journal: this.#journal,
      index: this.#index,
      folds: this.#folds,
      withWriter: (fn) => this.#withWriter(fn),
      held: () => this.#holdWrites,
      failed: (error) => {
        if (isFatal(error)) this.#invalidated = true;
      },
      // A reopen must not run under a group being prepared: the drain loop does it then.
      retry: () => {
        const ready = this.#draining ? Promise.resolve() : this.#recoverIfInvalidated();
        void ready.then(() => this.flush()).catch(() => undefined);
      },
      committed: (accepted, previous) => {
        this.#notify(accepted, previous);
        this.#release();
      },
      writeDeviceRecords: () => this.#folds.devices ? this.#writePq(-Infinity) : Promise.resolve(),
    });
  }

  /** How far the journal is in DuckDB (its measurements). */
  get #written() {
    return this.#writes?.position ?? null;
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
    const journal = this.#journal, writes = this.#writes;
    if (!journal || !writes) return;
    writes.pending.clear();
    this.#holdWrites = false;
    const { written, foldFrom, from } = await journalMarks(this.#connection);
    writes.position = written;
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
      writes.enqueue(accepted, newSeries, record.end);
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
      else if (this.#writes?.running) await this.#writes.running;
      else if (this.#writes?.pending.firstSynced) await this.#writes.start();
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
    const pending = this.#writes?.pending.backlog ?? { groups: 0, rows: 0, bytes: 0 };
    return { ...pending, waitingBytes: this.#waiting.bytes };
  }

  /** Stops retrying failed DuckDB writes; the journal keeps what they lacked for the next open. */
  close(): void {
    this.#index.stopResolving();
    this.#writes?.close();
  }

  /** Writes groups until no batch waits. */
  async #drain(): Promise<void> {
    this.#draining = true;
    try {
      while (this.#waiting.length) {
        const group = this.#waiting.takeGroup();
        try {
          await this.#recoverIfInvalidated();
          if (this.#writes) await this.#journaled(this.#writes, group);
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
    this.#writes?.cancelGather();
    await this.#journal?.idle();
    await this.#writes?.running?.catch(() => undefined);
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
   * With a journal: the group's record is synced, then the group is answered (store_writes.ts).
   * Memory notes the group at once: a journal write that fails leaves it stale.
   */
  async #journaled(writes: JournaledWrites, group: readonly Waiting[]): Promise<void> {
    if (writes.pending.full) {
      throw new Error("Ingest backlog full: DuckDB cannot keep up or cannot write");
    }
    const { accepted, newSeries, results } = await this.#prepare(group);
    writes.add(
      accepted,
      newSeries,
      () => group.forEach((w, k) => w.resolve(results[k]!)),
      (error) => {
        // Memory holds the group; the journal does not: read both again before the next group.
        this.#stale = true;
        for (const w of group) w.reject(error);
      },
    );
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
