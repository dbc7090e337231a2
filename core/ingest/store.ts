/**
 * The measurement store: durable, idempotent, atomic writes of validated batches into DuckDB.
 * Group commit: batches arriving while a transaction commits wait for the next one, and a whole
 * group is written in one transaction (one fsync); every batch is answered after its group's
 * commit. One writer at a time keeps the in-memory watermarks exact; a cell appears at most once
 * per group, so a retry never races its own first attempt.
 */
import { type DuckDBAppender, type DuckDBConnection, DuckDBTimestampValue } from "@duckdb/node-api";
import { LatestValues } from "../monitoring/latest.ts";
import { isFatal } from "../time_series_store.ts";
import { appendRows } from "./chunk_writer.ts";
import { DDL } from "./schema.ts";
import type { MeasurementRow } from "./validate.ts";
import type { EventRow, IoRow } from "./validate_extras.ts";

export const SLOT_MS = 10 * 60_000;
/**
 * A group stops taking batches at this many measurement rows. It bounds the memory of one
 * transaction inside DuckDB's buffer pool (DUCKDB_MEMORY_LIMIT): a commit that cannot pin a
 * block fails, and under that pressure DuckDB 1.5 was seen to invalidate the database.
 */
const MAX_GROUP_ROWS = 60_000;

/** The accepted records of one batch of one cell. */
export interface ValidBatch {
  measurements: readonly MeasurementRow[];
  events?: readonly EventRow[];
  io?: readonly IoRow[];
}

/** Outcome of one batch (measurements; events and I/O states are deduplicated silently). */
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

interface Waiting {
  cellId: string;
  batch: ValidBatch;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
}

/** A batch of a group with its series ids and the indexes of its new rows. */
interface Prepared {
  cellId: string;
  rows: readonly MeasurementRow[];
  ids: Int32Array;
  accepted: number[];
  events: EventRow[];
  io: IoRow[];
}

const sqlText = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** Durable storage of 20-s measurements with per-series watermarks for cheap deduplication. */
export class MeasurementStore {
  readonly #connection: DuckDBConnection;
  readonly #seriesIds = new Map<string, number>();
  readonly #watermarks = new Map<number, number>();
  /** Newest stored I/O state per cell: newer states cannot be duplicates. */
  readonly #ioMarks = new Map<string, number>();
  #nextSeriesId = 1;
  #waiting: Waiting[] = [];
  #draining = false;
  #listeners: SlotsTouched[] = [];
  /** The newest value of every series, for live status without a query. */
  readonly latest = new LatestValues();

  /** Set by a FATAL error: the next group reopens the store first. */
  #invalidated = false;
  readonly #reopen: () => Promise<void>;

  private constructor(connection: DuckDBConnection, reopen: () => Promise<void>) {
    this.#connection = connection;
    this.#reopen = reopen;
  }

  /**
   * Creates the tables when absent and loads series ids and watermarks. `reopen` reopens the
   * DuckDB instance after a FATAL error invalidated it (TimeSeriesStore.reopen); without one, such
   * an error stays until a restart.
   */
  static async open(
    connection: DuckDBConnection,
    reopen: () => Promise<void> = () => Promise.reject(new Error("The store cannot reopen")),
  ): Promise<MeasurementStore> {
    for (const statement of DDL) await connection.run(statement);
    const store = new MeasurementStore(connection, reopen);
    await store.#load();
    return store;
  }

  /** Loads series ids, watermarks and the latest values from the file. */
  async #load(): Promise<void> {
    const connection = this.#connection;
    this.#seriesIds.clear();
    this.#watermarks.clear();
    this.#ioMarks.clear();
    this.#nextSeriesId = 1;
    const series = await connection.runAndReadAll(
      "SELECT series_id, cell_id, feeder, phase FROM series",
    );
    for (
      const [id, cell, feeder, phase] of series.getRows() as [number, string, number, number][]
    ) {
      this.#seriesIds.set(`${cell}|${feeder}|${phase}`, id);
      this.#nextSeriesId = Math.max(this.#nextSeriesId, id + 1);
    }
    const marks = await connection.runAndReadAll(
      "SELECT series_id, epoch_ms(max(ts)) FROM raw_measurements GROUP BY series_id",
    );
    for (const [id, ts] of marks.getRows() as [number, bigint | number][]) {
      this.#watermarks.set(id, Number(ts));
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

  /** Registers a listener for the slots each committed group touched. */
  onSlotsTouched(listener: SlotsTouched): void {
    this.#listeners.push(listener);
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
   * Stores the records of one cell's batch atomically; resolves after the commit of the group
   * that carried it, rejects (nothing of the group stored) when that commit failed.
   */
  append(cellId: string, batch: ValidBatch): Promise<AppendResult> {
    if (!batch.measurements.length && !batch.events?.length && !batch.io?.length) {
      return Promise.resolve({ accepted: 0, duplicates: 0 });
    }
    return new Promise((resolve, reject) => {
      this.#waiting.push({ cellId, batch, resolve, reject });
      if (!this.#draining) void this.#drain();
    });
  }

  /** Commits groups until no batch waits. */
  async #drain(): Promise<void> {
    this.#draining = true;
    try {
      while (this.#waiting.length) {
        const group = this.#takeGroup();
        try {
          if (this.#invalidated) {
            // A FATAL error can follow a durable commit (DuckDB: "COMMIT succeeded and is
            // durable, but the autocheckpoint failed"): memory is reloaded from the file, so
            // that the cell's resend of that batch is known as a duplicate.
            await this.#reopen();
            await this.#load();
            this.#invalidated = false;
          }
          const results = await this.#commit(group);
          group.forEach((w, k) => w.resolve(results[k]!));
        } catch (error) {
          if (isFatal(error)) this.#invalidated = true;
          for (const w of group) w.reject(error);
        }
      }
    } finally {
      this.#draining = false;
    }
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
      rows += w.batch.measurements.length;
    }
    this.#waiting = rest;
    return group;
  }

  async #commit(group: readonly Waiting[]): Promise<AppendResult[]> {
    const newSeries: [string, number, string, number, number][] = [];
    const prepared = group.map(({ cellId, batch }): Prepared => {
      const rows = batch.measurements;
      const ids = new Int32Array(rows.length);
      for (let k = 0; k < rows.length; k++) {
        const row = rows[k]!;
        const key = `${cellId}|${row.feeder}|${row.phase}`;
        let id = this.#seriesIds.get(key);
        if (id === undefined) {
          id = this.#nextSeriesId++;
          this.#seriesIds.set(key, id);
          newSeries.push([key, id, cellId, row.feeder, row.phase]);
        }
        ids[k] = id;
      }
      return {
        cellId,
        rows,
        ids,
        accepted: [],
        events: [...(batch.events ?? [])],
        io: [...(batch.io ?? [])],
      };
    });
    try {
      return await this.#write(prepared, newSeries);
    } catch (error) {
      // Nothing was committed: forget the ids handed out, so memory matches the file.
      for (const [key] of newSeries) this.#seriesIds.delete(key);
      this.#nextSeriesId -= newSeries.length;
      throw error;
    }
  }

  async #write(
    prepared: Prepared[],
    newSeries: readonly [string, number, string, number, number][],
  ): Promise<AppendResult[]> {
    const existing = await this.#existing(prepared);
    await this.#dropKnownExtras(prepared);
    const touched = new Set<number>();
    const eventCells = new Map<number, Set<string>>();
    const marks = new Map<number, number>();
    const allIds: number[] = [];
    const allRows: MeasurementRow[] = [];
    for (const p of prepared) {
      for (let k = 0; k < p.rows.length; k++) {
        const row = p.rows[k]!;
        const id = p.ids[k]!;
        if (existing.size && existing.has(`${id}|${row.ts}`)) continue;
        p.accepted.push(k);
        allIds.push(id);
        allRows.push(row);
        touched.add(row.ts - (row.ts % SLOT_MS));
        if (row.ts > (marks.get(id) ?? -Infinity)) marks.set(id, row.ts);
      }
      for (const e of p.events) {
        // A flag may change the aggregate of every slot the event overlaps.
        for (let slot = e.start - (e.start % SLOT_MS); slot <= e.end; slot += SLOT_MS) {
          touched.add(slot);
          const cells = eventCells.get(slot) ?? new Set<string>();
          eventCells.set(slot, cells.add(p.cellId));
        }
      }
    }
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
      if (prepared.some((p) => p.events.length)) {
        const appender = await c.createAppender("voltage_events");
        for (const p of prepared) for (const e of p.events) appendEvent(appender, p.cellId, e);
        appender.closeSync();
      }
      if (prepared.some((p) => p.io.length)) {
        const appender = await c.createAppender("io_states");
        for (const p of prepared) {
          for (const s of p.io) {
            appender.appendVarchar(p.cellId);
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
      if (allRows.length) {
        const appender = await c.createAppender("raw_measurements");
        appendRows(appender, allIds, allRows, allRows.map((_, k) => k));
        appender.closeSync();
      }
      await c.run("COMMIT");
    } catch (error) {
      await c.run("ROLLBACK").catch(() => undefined);
      throw error;
    }
    const previousMarks = new Map<number, number>();
    for (const [id, ts] of marks) {
      const previous = this.#watermarks.get(id);
      if (previous !== undefined) previousMarks.set(id, previous);
      if (ts > (previous ?? -Infinity)) this.#watermarks.set(id, ts);
    }
    for (const p of prepared) {
      for (const s of p.io) {
        if (s.ts > (this.#ioMarks.get(p.cellId) ?? -Infinity)) this.#ioMarks.set(p.cellId, s.ts);
      }
    }
    for (let k = 0; k < allRows.length; k++) {
      const row = allRows[k]!;
      this.latest.update(allIds[k]!, row.ts, row.u, row.i);
    }
    if (touched.size) {
      const group = { ids: allIds, rows: allRows, previousMarks, eventCells };
      const slots = new TouchedSlots(touched, group);
      for (const listener of this.#listeners) listener(slots);
    }
    return prepared.map((p) => ({
      accepted: p.accepted.length,
      duplicates: p.rows.length - p.accepted.length,
    }));
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
