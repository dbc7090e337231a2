/**
 * The measurement store: durable, idempotent, atomic writes of validated batches into DuckDB.
 * One writer at a time (a promise queue): DuckDB serialises writes anyway, and a single writer
 * keeps the in-memory watermarks exact.
 */
import { type DuckDBAppender, type DuckDBConnection, DuckDBTimestampValue } from "@duckdb/node-api";
import { LatestValues } from "../monitoring/latest.ts";
import { appendRows } from "./chunk_writer.ts";
import { DDL } from "./schema.ts";
import type { MeasurementRow } from "./validate.ts";
import type { EventRow, IoRow } from "./validate_extras.ts";

export const SLOT_MS = 10 * 60_000;

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

/** A listener told which 10-minute slots received data (for aggregation). */
export type SlotsTouched = (slotStarts: ReadonlySet<number>) => void;

/** Durable storage of 20-s measurements with per-series watermarks for cheap deduplication. */
export class MeasurementStore {
  readonly #connection: DuckDBConnection;
  readonly #seriesIds = new Map<string, number>();
  readonly #watermarks = new Map<number, number>();
  #nextSeriesId = 1;
  #queue: Promise<unknown> = Promise.resolve();
  #listeners: SlotsTouched[] = [];
  /** The newest value of every series, for live status without a query. */
  readonly latest = new LatestValues();

  private constructor(connection: DuckDBConnection) {
    this.#connection = connection;
  }

  /** Creates the tables when absent and loads series ids and watermarks. */
  static async open(connection: DuckDBConnection): Promise<MeasurementStore> {
    for (const statement of DDL) await connection.run(statement);
    const store = new MeasurementStore(connection);
    const series = await connection.runAndReadAll(
      "SELECT series_id, cell_id, feeder, phase FROM series",
    );
    for (
      const [id, cell, feeder, phase] of series.getRows() as [number, string, number, number][]
    ) {
      store.#seriesIds.set(`${cell}|${feeder}|${phase}`, id);
      store.#nextSeriesId = Math.max(store.#nextSeriesId, id + 1);
    }
    const marks = await connection.runAndReadAll(
      "SELECT series_id, epoch_ms(max(ts)) FROM raw_measurements GROUP BY series_id",
    );
    for (const [id, ts] of marks.getRows() as [number, bigint | number][]) {
      store.#watermarks.set(id, Number(ts));
    }
    const recent = await connection.runAndReadAll(
      `SELECT series_id, epoch_ms(max(ts)), arg_max(u, ts), arg_max(i, ts) FROM raw_measurements
       WHERE ts >= (SELECT max(ts) FROM raw_measurements) - INTERVAL 10 MINUTE GROUP BY series_id`,
    );
    for (
      const [id, ts, u, i] of recent.getRows() as [number, bigint, number | null, number | null][]
    ) {
      store.latest.update(id, Number(ts), u ?? NaN, i ?? NaN);
    }
    return store;
  }

  /** Registers a listener for the slots each committed batch touched. */
  onSlotsTouched(listener: SlotsTouched): void {
    this.#listeners.push(listener);
  }

  /** The newest stored timestamp of any series (epoch ms), or null when the store is empty. */
  newestTimestamp(): number | null {
    let newest = -Infinity;
    for (const ts of this.#watermarks.values()) if (ts > newest) newest = ts;
    return Number.isFinite(newest) ? newest : null;
  }

  /** The series id of (cell, feeder, phase), or undefined when it never sent data. */
  seriesId(cellId: string, feeder: number, phase: number): number | undefined {
    return this.#seriesIds.get(`${cellId}|${feeder}|${phase}`);
  }

  /** Stores the records of one cell's batch in one transaction; resolves after the commit. */
  append(cellId: string, batch: ValidBatch): Promise<AppendResult> {
    const run = this.#queue.then(() => this.#append(cellId, batch));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #append(cellId: string, batch: ValidBatch): Promise<AppendResult> {
    const rows = batch.measurements;
    const events = batch.events ?? [];
    const io = batch.io ?? [];
    if (!rows.length && !events.length && !io.length) return { accepted: 0, duplicates: 0 };
    const cell = `'${cellId.replaceAll("'", "''")}'`;
    const newSeries: [string, number, number, number][] = [];
    const pending = new Map<string, number>();
    const ids = rows.map((row) => {
      const key = `${cellId}|${row.feeder}|${row.phase}`;
      let id = this.#seriesIds.get(key) ?? pending.get(key);
      if (id === undefined) {
        id = this.#nextSeriesId + newSeries.length;
        newSeries.push([key, id, row.feeder, row.phase]);
        pending.set(key, id);
      }
      return id;
    });
    const existing = await this.#existing(rows, ids);
    const c = this.#connection;
    let accepted = 0;
    const acceptedRows: number[] = [];
    const touched = new Set<number>();
    const marks = new Map<number, number>();
    await c.run("BEGIN TRANSACTION");
    try {
      for (const [, id, feeder, phase] of newSeries) {
        await c.run(`INSERT INTO series VALUES (${id}, ${cell}, ${feeder}, ${phase})`);
      }
      if (events.length) {
        // Staged through an appender, then merged: INSERT OR IGNORE keeps retries idempotent.
        const stage = await c.createAppender("voltage_events_stage");
        for (const e of events) {
          stage.appendVarchar(cellId);
          stage.appendVarchar(e.id);
          stage.appendVarchar(e.type);
          stage.appendTimestamp(new DuckDBTimestampValue(BigInt(e.start) * 1000n));
          stage.appendTimestamp(new DuckDBTimestampValue(BigInt(e.end) * 1000n));
          appendTextOrNull(stage, e.startPhase);
          appendTextOrNull(stage, e.endPhase);
          stage.appendFloat(e.extremePct);
          appendFloatOrNull(stage, e.deltaUPct ?? NaN);
          appendTextOrNull(stage, e.trace);
          stage.appendVarchar(e.kind);
          appendTextOrNull(stage, e.tableCell);
          stage.endRow();
          // A flag may change the aggregate of every slot the event overlaps.
          for (let slot = e.start - (e.start % SLOT_MS); slot <= e.end; slot += SLOT_MS) {
            touched.add(slot);
          }
        }
        stage.flushSync();
        stage.closeSync();
        await c.run("INSERT OR IGNORE INTO voltage_events SELECT * FROM voltage_events_stage");
        await c.run("DELETE FROM voltage_events_stage");
      }
      if (io.length) {
        const stage = await c.createAppender("io_states_stage");
        for (const s of io) {
          stage.appendVarchar(cellId);
          stage.appendTimestamp(new DuckDBTimestampValue(BigInt(s.ts) * 1000n));
          stage.appendUTinyInt(s.module);
          stage.appendUTinyInt(s.channel);
          stage.appendVarchar(s.kind);
          stage.appendDouble(s.value);
          stage.endRow();
        }
        stage.flushSync();
        stage.closeSync();
        // A batch may repeat a state (retries, or one state per window): keep the first.
        await c.run(
          `INSERT OR IGNORE INTO io_states SELECT DISTINCT ON (cell_id, ts, module, channel) *
          FROM io_states_stage`,
        );
        await c.run("DELETE FROM io_states_stage");
      }
      const appender = await c.createAppender("raw_measurements");
      for (let k = 0; k < rows.length; k++) {
        const row = rows[k]!;
        const id = ids[k]!;
        if (existing.has(`${id}|${row.ts}`)) continue;
        acceptedRows.push(k);
        touched.add(row.ts - (row.ts % SLOT_MS));
        if (row.ts > (marks.get(id) ?? -Infinity)) marks.set(id, row.ts);
      }
      accepted = acceptedRows.length;
      appendRows(appender, ids, rows, acceptedRows);
      appender.flushSync();
      appender.closeSync();
      await c.run("COMMIT");
    } catch (error) {
      await c.run("ROLLBACK").catch(() => undefined);
      throw error;
    }
    for (const [key, id] of newSeries) this.#seriesIds.set(key, id);
    this.#nextSeriesId += newSeries.length;
    for (const [id, ts] of marks) {
      if (ts > (this.#watermarks.get(id) ?? -Infinity)) this.#watermarks.set(id, ts);
    }
    for (const k of acceptedRows) this.latest.update(ids[k]!, rows[k]!.ts, rows[k]!.u, rows[k]!.i);
    if (touched.size) { for (const listener of this.#listeners) listener(touched); }
    return { accepted, duplicates: rows.length - accepted };
  }

  /** Keys `${series}|${ts}` already stored among rows at or below their series' watermark. */
  async #existing(rows: readonly MeasurementRow[], ids: readonly number[]): Promise<Set<string>> {
    const candidates: string[] = [];
    for (let k = 0; k < rows.length; k++) {
      const mark = this.#watermarks.get(ids[k]!);
      if (mark !== undefined && rows[k]!.ts <= mark) candidates.push(`(${ids[k]}, ${rows[k]!.ts})`);
    }
    const found = new Set<string>();
    if (!candidates.length) return found;
    const result = await this.#connection.runAndReadAll(
      `SELECT r.series_id, epoch_ms(r.ts) FROM raw_measurements r
       JOIN (VALUES ${candidates.join(",")}) AS c(series_id, ms)
         ON r.series_id = c.series_id AND r.ts = make_timestamp(c.ms * 1000)`,
    );
    for (const [id, ms] of result.getRows() as [number, bigint | number][]) {
      found.add(`${id}|${Number(ms)}`);
    }
    return found;
  }
}

function appendTextOrNull(appender: DuckDBAppender, value: string | null): void {
  if (value === null) appender.appendNull();
  else appender.appendVarchar(value);
}

function appendFloatOrNull(appender: DuckDBAppender, value: number): void {
  if (Number.isNaN(value)) appender.appendNull();
  else appender.appendFloat(value);
}
