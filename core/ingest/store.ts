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
import { type DuckDBAppender, type DuckDBConnection, DuckDBTimestampValue } from "@duckdb/node-api";
import { LatestValues } from "../monitoring/latest.ts";
import { isFatal } from "../time_series_store.ts";
import { appendRows } from "./chunk_writer.ts";
import { comparePositions, type Journal, type JournalPosition } from "./journal.ts";
import { decodeGroup, encodeGroup } from "./journal_codec.ts";
import { windowBit } from "./pq_fold.ts";
import { JOURNAL_FOLD, JOURNAL_RAW, migrate } from "./schema.ts";
import { type PqChanges, PqFolds, storedDeviceRecords, storedFolds } from "./store_pq.ts";
import type { MeasurementRow } from "./validate.ts";
import type { EventRow, IoRow } from "./validate_extras.ts";
import type { PqRow } from "./validate_pq.ts";

export const SLOT_MS = 10 * 60_000;
/**
 * A group stops taking batches at this many measurement rows. It bounds the memory of one
 * transaction inside DuckDB's buffer pool (DUCKDB_MEMORY_LIMIT): a commit that cannot pin a
 * block fails, and under that pressure DuckDB 1.5 was seen to invalidate the database.
 */
const MAX_GROUP_ROWS = 60_000;
/**
 * Journaled rows not yet in DuckDB beyond which new batches are refused (503: the cell resends
 * later). Bounds memory while DuckDB cannot write, e.g. on a full disk (about 150 MB).
 */
const MAX_PENDING_ROWS = 600_000;
/**
 * A protocol v1 fold is merged into `pq_10min` this long after its slot's end (the grace the
 * aggregation gives the last cells' batches); later values are merged into the stored record.
 */
export const FOLD_GRACE_MS = 60_000;
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

/** The accepted records of one batch of one cell. */
export interface ValidBatch {
  measurements: readonly MeasurementRow[];
  /** The cell's own 10-minute PQ records (protocol v2). */
  pq?: readonly PqRow[];
  events?: readonly EventRow[];
  io?: readonly IoRow[];
}

/**
 * Outcome of one batch: measurements and PQ records (events and I/O states are deduplicated
 * silently).
 */
export interface AppendResult {
  accepted: number;
  duplicates: number;
}

/** The measurement rows and events one committed group stored, for incremental aggregation. */
export interface CommittedGroup {
  /** Series id of each stored row. */
  readonly ids: readonly number[];
  readonly rows: readonly MeasurementRow[];
  /** Each series' watermark before the group; absent when the series had no row before. */
  readonly previousMarks: ReadonlyMap<number, number>;
  /** Cells whose new voltage events overlap a slot, by slot start. */
  readonly eventCells: ReadonlyMap<number, ReadonlySet<string>>;
}

/** Slot starts a committed group touched, with what it stored (when a store reports them). */
export class TouchedSlots extends Set<number> {
  constructor(slotStarts: Iterable<number>, readonly group: CommittedGroup | null = null) {
    super(slotStarts);
  }
}

/** A listener told which 10-minute slots received data (for aggregation). */
export type SlotsTouched = (slotStarts: TouchedSlots) => void;

/** A listener told which series' PQ records changed, by slot start (for the PQ rollups). */
export type PqTouched = (changes: PqChanges) => void;

interface Waiting {
  cellId: string;
  batch: ValidBatch;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
}

/** A batch of a group with the series ids of its rows and PQ records. */
interface Prepared {
  cellId: string;
  rows: readonly MeasurementRow[];
  ids: Int32Array;
  pq: readonly PqRow[];
  pqIds: Int32Array;
  events: EventRow[];
  io: IoRow[];
}

/**
 * What a batch adds to the store: its new rows and PQ records with their series ids, events,
 * I/O states.
 */
interface Accepted {
  cellId: string;
  ids: number[];
  rows: MeasurementRow[];
  pq: { ids: number[]; rows: PqRow[] };
  events: EventRow[];
  io: IoRow[];
}

/** A series first seen in a group: its key `cell|feeder|phase`, id, cell, feeder and phase. */
type NewSeries = readonly [string, number, string, number, number];

/** Each touched series' watermark before a group (undefined: it had no row). */
type PreviousMarks = Map<number, number | undefined>;

/** A journaled group waiting for its DuckDB write. */
interface Pending {
  accepted: Accepted[];
  newSeries: NewSeries[];
  previous: PreviousMarks;
  /** The journal position right after the group's record; null until it is synced. */
  end: JournalPosition | null;
  rows: number;
}

const sqlText = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** Durable storage of 20-s measurements with per-series watermarks for cheap deduplication. */
export class MeasurementStore {
  readonly #connection: DuckDBConnection;
  readonly #seriesIds = new Map<string, number>();
  /** Per cell, the series id of slot (feeder - 1) * 4 + phase (0: none yet): the hot lookup. */
  readonly #cellSeries = new Map<string, Int32Array>();
  readonly #watermarks = new Map<number, number>();
  /**
   * Per series, the newest slot whose PQ record is stored or folded (known for the series with
   * recent records): a newer record is new, others are looked up.
   */
  readonly #pqMarks = new Map<number, number>();
  /** Protocol v1 PQ values folded, not yet in `pq_10min`. */
  readonly #folds = new PqFolds();
  /** How far the journal is in DuckDB (its measurements). */
  #written: JournalPosition | null = null;
  #pqListeners: PqTouched[] = [];
  /** Newest stored I/O state per cell: newer states cannot be duplicates. */
  readonly #ioMarks = new Map<string, number>();
  #nextSeriesId = 1;
  #waiting: Waiting[] = [];
  #draining = false;
  #listeners: SlotsTouched[] = [];
  /** The newest value of every series, for live status without a query. */
  readonly latest = new LatestValues();

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
  #pending: Pending[] = [];
  #pendingRows = 0;
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
    const connection = this.#connection;
    this.#seriesIds.clear();
    this.#cellSeries.clear();
    this.#watermarks.clear();
    this.#pqMarks.clear();
    this.#folds.clear();
    this.#ioMarks.clear();
    this.#nextSeriesId = 1;
    const series = await connection.runAndReadAll(
      "SELECT series_id, cell_id, feeder, phase FROM series",
    );
    for (
      const [id, cell, feeder, phase] of series.getRows() as [number, string, number, number][]
    ) {
      this.#setSeries(cell, feeder, phase, id);
      this.#nextSeriesId = Math.max(this.#nextSeriesId, id + 1);
    }
    const marks = await connection.runAndReadAll(
      "SELECT series_id, epoch_ms(max(ts)) FROM raw_measurements GROUP BY series_id",
    );
    for (const [id, ts] of marks.getRows() as [number, bigint | number][]) {
      this.#watermarks.set(id, Number(ts));
    }
    // Recent series only: a series without a mark has its records looked up.
    const pqMarks = await connection.runAndReadAll(
      `SELECT series_id, epoch_ms(max(slot)) FROM pq_10min
       WHERE slot >= (SELECT max(slot) FROM pq_10min) - INTERVAL 2 DAY GROUP BY series_id`,
    );
    for (const [id, slot] of pqMarks.getRows() as [number, bigint | number][]) {
      this.#pqMarks.set(id, Number(slot));
    }
    const ioMarks = await connection.runAndReadAll(
      "SELECT cell_id, epoch_ms(max(ts)) FROM io_states GROUP BY cell_id",
    );
    for (const [cell, ts] of ioMarks.getRows() as [string, bigint | number][]) {
      this.#ioMarks.set(cell, Number(ts));
    }
    const recent = await connection.runAndReadAll(
      `SELECT series_id, epoch_ms(max(ts)), arg_max(u, ts), arg_max(i, ts) FROM raw_measurements
       WHERE ts >= (SELECT max(ts) FROM raw_measurements) - INTERVAL 10 MINUTE GROUP BY series_id`,
    );
    for (
      const [id, ts, u, i] of recent.getRows() as [number, bigint, number | null, number | null][]
    ) {
      this.latest.update(id, Number(ts), u ?? NaN, i ?? NaN);
    }
  }

  /** Writes the journal's records after the position DuckDB holds (all of them are acknowledged). */
  async #replay(): Promise<void> {
    const journal = this.#journal;
    if (!journal) return;
    this.#pending = [];
    this.#pendingRows = 0;
    this.#holdWrites = false;
    const held = new Map(
      ((await this.#connection.runAndReadAll(
        `SELECT id, segment, "offset" FROM journal_position`,
      )).getRows() as [number, bigint | number, bigint | number][]).map((
        [id, segment, offset],
      ) => [id, { segment: Number(segment), offset: Number(offset) }]),
    );
    const written = held.get(JOURNAL_RAW) ?? null;
    // Protocol v1 PQ values of records DuckDB holds but whose fold was not stored yet are
    // folded again from JOURNAL_FOLD on (none before: a file of an earlier release).
    const foldFrom = held.get(JOURNAL_FOLD) ?? written;
    const from = foldFrom && written && comparePositions(foldFrom, written) < 0
      ? foldFrom
      : written;
    this.#written = written;
    const records = await journal.recover(from);
    const stored = records.filter((r) => written && comparePositions(r.end, written) <= 0);
    await this.#foldAgain(stored.map((r) => r.payload), foldFrom ?? { segment: 0, offset: 0 });
    for (const record of records.slice(stored.length)) {
      const group = decodeGroup(record.payload).map((b) => ({
        cellId: b.cellId,
        batch: { measurements: b.rows, pq: b.pq, events: b.events, io: b.io },
      }));
      const { accepted, newSeries } = await this.#prepare(group);
      this.#enqueue(accepted, newSeries, record.end);
    }
    await this.flush();
  }

  /**
   * Holds again the PQ values of journal records whose rows DuckDB holds but whose PQ part was
   * not written: protocol v1 values are folded, except the windows a stored record holds
   * already (or whose series and slot have a device record); a cell's own records are held
   * unless stored.
   */
  async #foldAgain(payloads: readonly Uint8Array[], heldFrom: JournalPosition): Promise<void> {
    const batches = payloads.flatMap((payload) => decodeGroup(payload));
    let [first, last] = [Infinity, -Infinity];
    for (const b of batches) {
      for (const row of b.rows) {
        if (!row.pq) continue;
        first = Math.min(first, row.ts - (row.ts % SLOT_MS));
        last = Math.max(last, row.ts);
      }
      for (const record of b.pq) {
        first = Math.min(first, record.slot);
        last = Math.max(last, record.slot);
      }
    }
    if (first > last) return;
    const stored = await storedFolds(this.#connection, first, last);
    const skip = (id: number, ts: number) => {
      const windows = stored.get(`${id}|${ts - (ts % SLOT_MS)}`);
      return windows !== undefined && (windows === -1 || (windows & windowBit(ts)) !== 0);
    };
    for (const b of batches) {
      const series = this.#cellSeries.get(b.cellId);
      const idOf = (feeder: number, phase: number) => series?.[(feeder - 1) * 4 + phase] ?? 0;
      const ids = b.rows.map((row) => idOf(row.feeder, row.phase));
      const rows = b.rows.filter((row, k) => row.pq && ids[k]);
      const kept = ids.filter((id, k) => b.rows[k]!.pq && id);
      this.#folds.add(kept, rows, heldFrom, skip);
      rows.forEach((row, k) => this.#markPq(kept[k]!, row.ts - (row.ts % SLOT_MS)));
      const records = b.pq.filter((r) => {
        const id = idOf(r.feeder, r.phase);
        return id && stored.get(`${id}|${r.slot}`) !== -1;
      });
      const recordIds = records.map((r) => idOf(r.feeder, r.phase));
      this.#folds.addDevices(recordIds, records, heldFrom);
      records.forEach((r, k) => this.#markPq(recordIds[k]!, r.slot));
    }
  }

  /**
   * Notes that `seriesId` has a PQ record (stored or folded) for `slot`. A series without a
   * known mark stays unknown: it may hold older records, so its records are looked up.
   */
  #markPq(seriesId: number, slot: number): void {
    const mark = this.#pqMarks.get(seriesId);
    if (mark !== undefined && slot > mark) this.#pqMarks.set(seriesId, slot);
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
    let newest = -Infinity;
    for (const ts of this.#watermarks.values()) if (ts > newest) newest = ts;
    return Number.isFinite(newest) ? newest : null;
  }

  /** How many series (cell, feeder, phase) have sent data. */
  get seriesCount(): number {
    return this.#seriesIds.size;
  }

  /** The series id of (cell, feeder, phase), or undefined when it never sent data. */
  seriesId(cellId: string, feeder: number, phase: number): number | undefined {
    return this.#seriesIds.get(`${cellId}|${feeder}|${phase}`);
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
      this.#waiting.push({ cellId, batch, resolve, reject });
      if (!this.#draining) void this.#drain();
    });
  }

  /** Resolves once every acknowledged group is in DuckDB; rejects while DuckDB cannot write. */
  async flush(): Promise<void> {
    await this.#journal?.idle();
    for (;;) {
      // A recovery reads memory again and writes what the journal holds: wait for it.
      if (this.#holdWrites) await this.#recovering?.catch(() => undefined);
      else if (this.#flushing) await this.#flushing;
      else if (this.#pending[0]?.end) await this.#startFlush();
      else break;
    }
    // The cells' own PQ records are acknowledged records too (folds wait for their slot).
    if (this.#folds.devices) await this.#writePq(-Infinity);
  }

  /** Journaled groups not yet in DuckDB and their rows (operations, benchmarks). */
  get backlog(): { groups: number; rows: number } {
    return { groups: this.#pending.length, rows: this.#pendingRows };
  }

  /** Stops retrying failed DuckDB writes; the journal keeps what they lacked for the next open. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#retry);
    clearTimeout(this.#gather);
  }

  /** Writes groups until no batch waits. */
  async #drain(): Promise<void> {
    this.#draining = true;
    try {
      while (this.#waiting.length) {
        const group = this.#takeGroup();
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

  /** The waiting batches of distinct cells, in arrival order, up to MAX_GROUP_ROWS. */
  #takeGroup(): Waiting[] {
    const group: Waiting[] = [];
    const rest: Waiting[] = [];
    const cells = new Set<string>();
    let rows = 0;
    for (const w of this.#waiting) {
      if (cells.has(w.cellId) || (group.length && rows >= MAX_GROUP_ROWS)) {
        rest.push(w);
        continue;
      }
      cells.add(w.cellId);
      group.push(w);
      rows += w.batch.measurements.length + (w.batch.pq?.length ?? 0);
    }
    this.#waiting = rest;
    return group;
  }

  /** Without a journal: the group's DuckDB transaction, then its answers. */
  async #direct(group: readonly Waiting[]): Promise<void> {
    const { accepted, newSeries, results } = await this.#prepare(group);
    try {
      await this.#withWriter(async () => {
        await this.#write(accepted, newSeries, null);
        for (const a of accepted) {
          this.#folds.add(a.ids, a.rows, null);
          this.#folds.addDevices(a.pq.ids, a.pq.rows, null);
        }
      });
    } catch (error) {
      this.#forget(newSeries);
      throw error;
    }
    this.#notify(accepted, this.#remember(accepted));
    group.forEach((w, k) => w.resolve(results[k]!));
  }

  /**
   * With a journal: the group's record is synced, then the group is answered. A group that finds
   * the store idle (no DuckDB write running or waiting) starts a write and is answered after it,
   * so that a lone batch is visible to queries at its answer; under load it is answered at once
   * and joins the write that gathers behind the running one.
   */
  async #journaled(group: readonly Waiting[]): Promise<void> {
    if (this.#pendingRows > MAX_PENDING_ROWS) {
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
    const previous = this.#remember(accepted);
    const rows = accepted.reduce((n, a) => n + a.rows.length + a.pq.rows.length, 0);
    const pending: Pending = { accepted, newSeries, previous, end, rows };
    this.#pending.push(pending);
    this.#pendingRows += rows;
    return pending;
  }

  /**
   * Writes pending groups (up to MAX_GROUP_ROWS rows) to DuckDB in one transaction; starts the
   * next write when more wait. Returns the running write when one runs.
   */
  #startFlush(): Promise<void> {
    if (this.#flushing) return this.#flushing;
    // Only synced groups, in journal order: the position written with them must be on disk.
    if (!this.#pending[0]?.end || this.#holdWrites) return Promise.resolve();
    clearTimeout(this.#gather);
    this.#gather = undefined;
    const take: Pending[] = [];
    let rows = 0;
    while (
      this.#pending[0]?.end && (!take.length || rows + this.#pending[0].rows <= MAX_GROUP_ROWS)
    ) {
      const next = this.#pending.shift()!;
      take.push(next);
      rows += next.rows;
    }
    const run = async () => {
      const accepted = take.flatMap((g) => g.accepted);
      const end = take.at(-1)!.end!;
      try {
        await this.#withWriter(async () => {
          // A replay finds these rows' PQ values and records from the position before them on.
          const heldFrom = this.#written ?? { segment: 0, offset: 0 };
          const pq = accepted.some((a) => a.pq.rows.length || a.rows.some((row) => row.pq));
          const foldFrom = this.#folds.heldFrom(pq ? heldFrom : end);
          await this.#write(accepted, take.flatMap((g) => g.newSeries), end, foldFrom);
          for (const a of accepted) {
            this.#folds.add(a.ids, a.rows, heldFrom);
            this.#folds.addDevices(a.pq.ids, a.pq.rows, heldFrom);
          }
          this.#written = end;
        });
      } catch (error) {
        this.#pending.unshift(...take);
        if (isFatal(error)) this.#invalidated = true;
        this.#scheduleRetry();
        throw error;
      }
      this.#pendingRows -= rows;
      // A series' mark before the merged groups is its mark before the first that touched it.
      const previous: PreviousMarks = new Map();
      for (const g of take) {
        for (const [id, mark] of g.previous) if (!previous.has(id)) previous.set(id, mark);
      }
      this.#notify(accepted, previous);
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

  /**
   * Series ids for a group's rows (new series get the next ids), then what is new: rows above
   * their series' watermark, or below it and not stored (retries, backfills; pending groups are
   * written to DuckDB first, so that the lookup sees them), events and I/O states not stored.
   */
  async #prepare(
    group: readonly { cellId: string; batch: ValidBatch }[],
  ): Promise<{ accepted: Accepted[]; newSeries: NewSeries[]; results: AppendResult[] }> {
    const newSeries: NewSeries[] = [];
    const idOf = (cellId: string, feeder: number, phase: number) => {
      let id = this.#cellSeries.get(cellId)?.[(feeder - 1) * 4 + phase] || undefined;
      if (id === undefined) {
        id = this.#nextSeriesId++;
        this.#setSeries(cellId, feeder, phase, id);
        newSeries.push([`${cellId}|${feeder}|${phase}`, id, cellId, feeder, phase]);
        // A series new to the file has no PQ record: its first needs no lookup.
        this.#pqMarks.set(id, -Infinity);
      }
      return id;
    };
    const prepared = group.map(({ cellId, batch }): Prepared => {
      const rows = batch.measurements;
      const ids = new Int32Array(rows.length);
      for (let k = 0; k < rows.length; k++) ids[k] = idOf(cellId, rows[k]!.feeder, rows[k]!.phase);
      const pq = batch.pq ?? [];
      const pqIds = new Int32Array(pq.length);
      for (let k = 0; k < pq.length; k++) pqIds[k] = idOf(cellId, pq[k]!.feeder, pq[k]!.phase);
      return {
        cellId,
        rows,
        ids,
        pq,
        pqIds,
        events: [...(batch.events ?? [])],
        io: [...(batch.io ?? [])],
      };
    });
    try {
      // Every acknowledged group must be in DuckDB before it is searched for these rows.
      const lookup = prepared.some((p) => this.#needsLookup(p));
      if (lookup) await this.flush();
      const search = async () => {
        await this.#dropKnownExtras(prepared);
        if (!lookup) return { existing: new Set<string>(), devices: new Set<string>() };
        const candidates = prepared.flatMap((p) =>
          p.pq.flatMap((r, k) =>
            this.#pqMayExist(p.pqIds[k]!, r.slot) ? [[p.pqIds[k]!, r.slot] as const] : []
          )
        );
        return {
          existing: await this.#existing(prepared),
          devices: await storedDeviceRecords(this.#connection, candidates),
        };
      };
      // Without a lookup, only events and I/O states repeated within a batch are dropped: no
      // query, so no wait for the writer connection.
      const { existing, devices } = lookup ? await this.#withWriter(search) : await search();
      const accepted = prepared.map((p): Accepted => {
        const out: Accepted = {
          cellId: p.cellId,
          ids: [],
          rows: [],
          pq: { ids: [], rows: [] },
          events: p.events,
          io: p.io,
        };
        for (let k = 0; k < p.rows.length; k++) {
          const row = p.rows[k]!;
          const id = p.ids[k]!;
          if (existing.size && existing.has(`${id}|${row.ts}`)) continue;
          out.ids.push(id);
          out.rows.push(row);
        }
        for (let k = 0; k < p.pq.length; k++) {
          const record = p.pq[k]!;
          const id = p.pqIds[k]!;
          const key = `${id}|${record.slot}`;
          if (devices.has(key) || this.#folds.hasDevice(key)) continue;
          out.pq.ids.push(id);
          out.pq.rows.push(record);
        }
        return out;
      });
      const results = accepted.map((a, k) => {
        const stored = a.rows.length + a.pq.rows.length;
        const sent = prepared[k]!.rows.length + prepared[k]!.pq.length;
        return { accepted: stored, duplicates: sent - stored };
      });
      return { accepted, newSeries, results };
    } catch (error) {
      this.#forget(newSeries);
      throw error;
    }
  }

  /** Whether a PQ record of `seriesId` for `slot` may be stored already (or folded). */
  #pqMayExist(seriesId: number, slot: number): boolean {
    return !(slot > (this.#pqMarks.get(seriesId) ?? Infinity));
  }

  /**
   * Whether a batch needs a DuckDB lookup: rows at or below their watermark, PQ records at or
   * below theirs (or of a series without one), events, old I/O states.
   */
  #needsLookup(p: Prepared): boolean {
    if (p.events.length) return true;
    for (let k = 0; k < p.pq.length; k++) {
      if (this.#pqMayExist(p.pqIds[k]!, p.pq[k]!.slot)) return true;
    }
    for (let k = 0; k < p.rows.length; k++) {
      const mark = this.#watermarks.get(p.ids[k]!);
      if (mark !== undefined && p.rows[k]!.ts <= mark) return true;
    }
    const ioMark = this.#ioMarks.get(p.cellId) ?? -Infinity;
    return p.io.some((s) => s.ts <= ioMark);
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

  /** Nothing of a group was stored: the series ids it handed out are free again. */
  #forget(newSeries: readonly NewSeries[]): void {
    for (const [key, id, cellId, feeder, phase] of newSeries) {
      this.#seriesIds.delete(key);
      this.#pqMarks.delete(id);
      const slots = this.#cellSeries.get(cellId);
      if (slots) slots[(feeder - 1) * 4 + phase] = 0;
    }
    this.#nextSeriesId -= newSeries.length;
  }

  #setSeries(cellId: string, feeder: number, phase: number, id: number): void {
    this.#seriesIds.set(`${cellId}|${feeder}|${phase}`, id);
    let slots = this.#cellSeries.get(cellId);
    if (!slots) this.#cellSeries.set(cellId, slots = new Int32Array(24));
    slots[(feeder - 1) * 4 + phase] = id;
  }

  /** Moves watermarks, I/O marks and latest values; returns each touched series' mark before. */
  #remember(accepted: readonly Accepted[]): PreviousMarks {
    const previous: PreviousMarks = new Map();
    for (const a of accepted) {
      for (let k = 0; k < a.rows.length; k++) {
        const id = a.ids[k]!;
        const row = a.rows[k]!;
        const mark = this.#watermarks.get(id);
        if (!previous.has(id)) previous.set(id, mark);
        if (row.ts > (mark ?? -Infinity)) this.#watermarks.set(id, row.ts);
        this.latest.update(id, row.ts, row.u, row.i);
        // Its fold makes a record of the slot: a device record of it is then looked up.
        if (row.pq) this.#markPq(id, row.ts - (row.ts % SLOT_MS));
      }
      a.pq.rows.forEach((record, k) => this.#markPq(a.pq.ids[k]!, record.slot));
      for (const s of a.io) {
        if (s.ts > (this.#ioMarks.get(a.cellId) ?? -Infinity)) this.#ioMarks.set(a.cellId, s.ts);
      }
    }
    return previous;
  }

  /** Tells the listeners which slots a DuckDB write touched, with its rows. */
  #notify(accepted: readonly Accepted[], previous: PreviousMarks): void {
    const touched = new Set<number>();
    const eventCells = new Map<number, Set<string>>();
    const ids: number[] = [];
    const rows: MeasurementRow[] = [];
    for (const a of accepted) {
      for (let k = 0; k < a.rows.length; k++) {
        const row = a.rows[k]!;
        ids.push(a.ids[k]!);
        rows.push(row);
        touched.add(row.ts - (row.ts % SLOT_MS));
      }
      for (const e of a.events) {
        // A flag may change the aggregate of every slot the event overlaps.
        for (let slot = e.start - (e.start % SLOT_MS); slot <= e.end; slot += SLOT_MS) {
          touched.add(slot);
          const cells = eventCells.get(slot) ?? new Set<string>();
          eventCells.set(slot, cells.add(a.cellId));
        }
      }
    }
    if (!touched.size) return;
    const previousMarks = new Map<number, number>();
    for (const [id, mark] of previous) if (mark !== undefined) previousMarks.set(id, mark);
    const slots = new TouchedSlots(touched, { ids, rows, previousMarks, eventCells });
    for (const listener of this.#listeners) listener(slots);
  }

  /**
   * One DuckDB transaction: new series, events, I/O states, PQ records, rows and the journal
   * positions: `end` for the rows, `foldFrom` from which a replay folds protocol v1 PQ values
   * again (the folds held in memory, with those of these rows).
   */
  async #write(
    accepted: readonly Accepted[],
    newSeries: readonly NewSeries[],
    end: JournalPosition | null,
    foldFrom: JournalPosition | null = null,
  ): Promise<void> {
    const c = this.#connection;
    await c.run("BEGIN TRANSACTION");
    try {
      if (newSeries.length) {
        const appender = await c.createAppender("series");
        for (const [, id, cellId, feeder, phase] of newSeries) {
          appender.appendInteger(id);
          appender.appendVarchar(cellId);
          appender.appendUTinyInt(feeder);
          appender.appendUTinyInt(phase);
          appender.endRow();
        }
        appender.closeSync();
      }
      if (accepted.some((a) => a.events.length)) {
        const appender = await c.createAppender("voltage_events");
        for (const a of accepted) for (const e of a.events) appendEvent(appender, a.cellId, e);
        appender.closeSync();
      }
      if (accepted.some((a) => a.io.length)) {
        const appender = await c.createAppender("io_states");
        for (const a of accepted) {
          for (const s of a.io) {
            appender.appendVarchar(a.cellId);
            appender.appendTimestamp(new DuckDBTimestampValue(BigInt(s.ts) * 1000n));
            appender.appendUTinyInt(s.module);
            appender.appendUTinyInt(s.channel);
            appender.appendVarchar(s.kind);
            appender.appendDouble(s.value);
            appender.endRow();
          }
        }
        appender.closeSync();
      }
      const ids = accepted.flatMap((a) => a.ids);
      if (ids.length) {
        const rows = accepted.flatMap((a) => a.rows);
        const appender = await c.createAppender("raw_measurements");
        appendRows(appender, ids, rows, rows.map((_, k) => k));
        appender.closeSync();
      }
      if (end) {
        const from = foldFrom ?? end;
        await c.run(
          `INSERT OR REPLACE INTO journal_position VALUES
             (${JOURNAL_RAW}, ${end.segment}, ${end.offset}),
             (${JOURNAL_FOLD}, ${from.segment}, ${from.offset})`,
        );
      }
      await c.run("COMMIT");
    } catch (error) {
      await c.run("ROLLBACK").catch(() => undefined);
      throw error;
    }
  }

  /** Keys `${series}|${ts}` already stored among rows at or below their series' watermark. */
  async #existing(prepared: readonly Prepared[]): Promise<Set<string>> {
    const candidates: string[] = [];
    let [minTs, maxTs, minId, maxId] = [Infinity, -Infinity, Infinity, -Infinity];
    for (const { rows, ids } of prepared) {
      for (let k = 0; k < rows.length; k++) {
        const id = ids[k]!;
        const ts = rows[k]!.ts;
        const mark = this.#watermarks.get(id);
        if (mark === undefined || ts > mark) continue;
        candidates.push(`(${id}, ${ts})`);
        if (ts < minTs) minTs = ts;
        if (ts > maxTs) maxTs = ts;
        if (id < minId) minId = id;
        if (id > maxId) maxId = id;
      }
    }
    const found = new Set<string>();
    if (!candidates.length) return found;
    // Retries and backfills span a short time: scan that range (zone maps skip the rest) rather
    // than joining a list of every candidate key.
    const sql = maxTs - minTs <= 3_600_000
      ? `SELECT series_id, epoch_ms(ts) FROM raw_measurements
         WHERE ts BETWEEN make_timestamp(${minTs * 1000}) AND make_timestamp(${maxTs * 1000})
           AND series_id BETWEEN ${minId} AND ${maxId}`
      : `SELECT r.series_id, epoch_ms(r.ts) FROM raw_measurements r
         JOIN (VALUES ${candidates.join(",")}) AS c(series_id, ms)
           ON r.series_id = c.series_id AND r.ts = make_timestamp(c.ms * 1000)`;
    const result = await this.#connection.runAndReadAll(sql);
    for (const [id, ms] of result.getRows() as [number, bigint | number][]) {
      found.add(`${id}|${Number(ms)}`);
    }
    return found;
  }

  /**
   * Removes from the batches the events and I/O states already stored (retries) or repeated in
   * the batch (the first one stays), so that they can be appended directly to their keyed
   * tables. Events are looked up by id; I/O states only at or below the cell's I/O watermark.
   */
  async #dropKnownExtras(prepared: readonly Prepared[]): Promise<void> {
    const eventKeys: string[] = [];
    const ioKeys: string[] = [];
    for (const p of prepared) {
      const cell = sqlText(p.cellId);
      const ids = new Set<string>();
      p.events = p.events.filter((e) => !ids.has(e.id) && ids.add(e.id));
      for (const e of p.events) eventKeys.push(`(${cell}, ${sqlText(e.id)})`);
      const keys = new Set<string>();
      p.io = p.io.filter((s) => {
        const key = `${s.ts}|${s.module}|${s.channel}`;
        return !keys.has(key) && keys.add(key);
      });
      const mark = this.#ioMarks.get(p.cellId) ?? -Infinity;
      for (const s of p.io) {
        if (s.ts <= mark) ioKeys.push(`(${cell}, ${s.ts}, ${s.module}, ${s.channel})`);
      }
    }
    const known = new Set<string>();
    const c = this.#connection;
    if (eventKeys.length) {
      const rows = (await c.runAndReadAll(
        `SELECT e.cell_id, e.event_id FROM voltage_events e
         JOIN (VALUES ${eventKeys.join(",")}) AS k(cell_id, event_id)
           ON e.cell_id = k.cell_id AND e.event_id = k.event_id`,
      )).getRows() as [string, string][];
      for (const [cell, id] of rows) known.add(`${cell}|e|${id}`);
    }
    if (ioKeys.length) {
      const rows = (await c.runAndReadAll(
        `SELECT s.cell_id, epoch_ms(s.ts), s.module, s.channel FROM io_states s
         JOIN (VALUES ${ioKeys.join(",")}) AS k(cell_id, ms, module, channel)
           ON s.cell_id = k.cell_id AND s.ts = make_timestamp(k.ms * 1000)
             AND s.module = k.module AND s.channel = k.channel`,
      )).getRows() as [string, bigint, number, number][];
      for (const [cell, ms, module, channel] of rows) {
        known.add(`${cell}|io|${Number(ms)}|${module}|${channel}`);
      }
    }
    if (!known.size) return;
    for (const p of prepared) {
      p.events = p.events.filter((e) => !known.has(`${p.cellId}|e|${e.id}`));
      p.io = p.io.filter((s) => !known.has(`${p.cellId}|io|${s.ts}|${s.module}|${s.channel}`));
    }
  }
}

function appendEvent(appender: DuckDBAppender, cellId: string, e: EventRow): void {
  appender.appendVarchar(cellId);
  appender.appendVarchar(e.id);
  appender.appendVarchar(e.type);
  appender.appendTimestamp(new DuckDBTimestampValue(BigInt(e.start) * 1000n));
  appender.appendTimestamp(new DuckDBTimestampValue(BigInt(e.end) * 1000n));
  appendTextOrNull(appender, e.startPhase);
  appendTextOrNull(appender, e.endPhase);
  appender.appendFloat(e.extremePct);
  appendFloatOrNull(appender, e.deltaUPct ?? NaN);
  appendTextOrNull(appender, e.trace);
  appender.appendVarchar(e.kind);
  appendTextOrNull(appender, e.tableCell);
  appender.endRow();
}

function appendTextOrNull(appender: DuckDBAppender, value: string | null): void {
  if (value === null) appender.appendNull();
  else appender.appendVarchar(value);
}

function appendFloatOrNull(appender: DuckDBAppender, value: number): void {
  if (Number.isNaN(value)) appender.appendNull();
  else appender.appendFloat(value);
}
