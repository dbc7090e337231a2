/**
 * The measurement store's memory of its file: series ids, per-series watermarks (newest stored
 * row, newest PQ record), per-cell I/O marks and the newest values. It decides cheaply what may
 * be a duplicate: only rows at or below their watermark are looked up in DuckDB.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { LatestValues } from "../monitoring/latest.ts";
import {
  type Accepted,
  type NewSeries,
  type Prepared,
  type PreviousMarks,
  SLOT_MS,
  type ValidBatch,
} from "./store_group.ts";

/** The newest stretch of the file whose watermarks a load reads (the rest: `resolveMarks`). */
export const RECENT_MARKS_MS = 3_600_000;

/** Series ids and watermarks of one store. */
export class SeriesIndex {
  readonly #seriesIds = new Map<string, number>();
  /** Per cell, the series id of slot (feeder - 1) * 4 + phase (0: none yet): the hot lookup. */
  readonly #cellSeries = new Map<string, Int32Array>();
  readonly #watermarks = new Map<number, number>();
  /**
   * Series whose watermark is not known yet: no row in the newest hour of the file when it was
   * loaded (`#load`). Their rows are looked up and their slots recomputed in SQL until
   * `resolveMarks` finds it; meanwhile `#watermarks` holds their newest row stored since.
   */
  readonly #unknownMarks = new Set<number>();
  /** Where the loaded marks start (epoch ms): `resolveMarks` reads the rows before it. */
  #marksFrom = -Infinity;
  /** Bumped by every load and by `stopResolving`: an earlier resolution stops. */
  #generation = 0;
  /**
   * Per series, the newest slot whose PQ record is stored or folded (known for the series with
   * recent records): a newer record is new, others are looked up.
   */
  readonly #pqMarks = new Map<number, number>();
  /** Newest stored I/O state per cell: newer states cannot be duplicates. */
  readonly #ioMarks = new Map<string, number>();
  #nextSeriesId = 1;
  /** The newest value of every series, for live status without a query. */
  readonly latest = new LatestValues();

  /** Loads series ids, watermarks and the latest values from the file. */
  async load(connection: DuckDBConnection): Promise<void> {
    this.#seriesIds.clear();
    this.#cellSeries.clear();
    this.#watermarks.clear();
    this.#unknownMarks.clear();
    this.#generation++;
    this.#pqMarks.clear();
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
    // The newest hour only: the max of every series over the whole table read 4.5 s per day
    // stored at 5,000 cells, on the way to ready (and after every reopen).
    this.#marksFrom = Number(
      (await connection.runAndReadAll(
        "SELECT coalesce(epoch_ms(max(ts)), 0) FROM raw_measurements",
      )).getRows()[0]![0],
    ) - RECENT_MARKS_MS;
    const marks = await connection.runAndReadAll(
      `SELECT series_id, epoch_ms(max(ts)) FROM raw_measurements
       WHERE ts >= make_timestamp(${this.#marksFrom * 1000}) GROUP BY series_id`,
    );
    for (const [id, ts] of marks.getRows() as [number, bigint | number][]) {
      this.#watermarks.set(id, Number(ts));
    }
    for (const id of this.#seriesIds.values()) {
      if (!this.#watermarks.has(id)) this.#unknownMarks.add(id);
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
      `SELECT series_id, epoch_ms(max(ts)), arg_max(u, ts), arg_max(i, ts), arg_max(p, ts),
         arg_max(q, ts), arg_max(f, ts) FROM raw_measurements
       WHERE ts >= (SELECT max(ts) FROM raw_measurements) - INTERVAL 10 MINUTE GROUP BY series_id`,
    );
    for (const [id, ts, ...v] of recent.getRows() as [number, bigint, ...(number | null)[]][]) {
      const [u, i, p, q, f] = v.map((x) => x ?? NaN);
      this.latest.update(id, Number(ts), u!, i!, p, q, f);
    }
  }

  /**
   * Finds the watermarks the load left unknown, reading the rows before the loaded hour one
   * chunk of `chunkMs` at a time, newest first, each alone on the writer connection
   * (`exclusive`), until every series is found or the oldest row is read. Stops at the next
   * load or `stopResolving`.
   */
  async resolveMarks(
    connection: DuckDBConnection,
    exclusive: <T>(fn: () => Promise<T>) => Promise<T>,
    chunkMs = RECENT_MARKS_MS,
  ): Promise<void> {
    const generation = this.#generation;
    const current = () => generation === this.#generation;
    if (!this.#unknownMarks.size) return;
    const oldest = Number(
      (await exclusive(() =>
        connection.runAndReadAll("SELECT coalesce(epoch_ms(min(ts)), 0) FROM raw_measurements")
      )).getRows()[0]![0],
    );
    for (let to = this.#marksFrom; to > oldest && this.#unknownMarks.size; to -= chunkMs) {
      const found = await exclusive(() =>
        connection.runAndReadAll(
          `SELECT series_id, epoch_ms(max(ts)) FROM raw_measurements
           WHERE ts >= make_timestamp(${(to - chunkMs) * 1000}) AND ts < make_timestamp(${
            to * 1000
          })
           GROUP BY series_id`,
        )
      );
      if (!current()) return;
      for (const [id, ts] of found.getRows() as [number, bigint | number][]) {
        if (!this.#unknownMarks.delete(id)) continue;
        // Rows stored since the load may be newer.
        if (Number(ts) > (this.#watermarks.get(id) ?? -Infinity)) {
          this.#watermarks.set(id, Number(ts));
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (!current()) return;
    }
    // The rest have no stored row (past their lifetime): what was stored since is their mark.
    this.#unknownMarks.clear();
  }

  /** Stops a running `resolveMarks`. */
  stopResolving(): void {
    this.#generation++;
  }

  /** How many series' watermarks `resolveMarks` has still to find. */
  get unknownMarks(): number {
    return this.#unknownMarks.size;
  }

  /** How many series (cell, feeder, phase) have sent data. */
  get size(): number {
    return this.#seriesIds.size;
  }

  /** The series id of (cell, feeder, phase), or undefined when it never sent data. */
  seriesId(cellId: string, feeder: number, phase: number): number | undefined {
    return this.#seriesIds.get(`${cellId}|${feeder}|${phase}`);
  }

  /** The series id of (cell, feeder, phase), or 0 when it never sent data (the hot path). */
  knownId(cellId: string, feeder: number, phase: number): number {
    return this.#cellSeries.get(cellId)?.[(feeder - 1) * 4 + phase] ?? 0;
  }

  /** The newest stored timestamp of any series (epoch ms), or null when the store is empty. */
  newestTimestamp(): number | null {
    let newest = -Infinity;
    for (const ts of this.#watermarks.values()) if (ts > newest) newest = ts;
    return Number.isFinite(newest) ? newest : null;
  }

  /** Series ids for a group's rows and records; a series seen first gets the next id. */
  prepare(group: readonly { cellId: string; batch: ValidBatch }[], newSeries: NewSeries[]) {
    const idOf = (cellId: string, feeder: number, phase: number) => {
      let id = this.knownId(cellId, feeder, phase) || undefined;
      if (id === undefined) {
        id = this.#nextSeriesId++;
        this.#setSeries(cellId, feeder, phase, id);
        newSeries.push([`${cellId}|${feeder}|${phase}`, id, cellId, feeder, phase]);
        // A series new to the file has no PQ record: its first needs no lookup.
        this.#pqMarks.set(id, -Infinity);
      }
      return id;
    };
    return group.map(({ cellId, batch }): Prepared => {
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
  }

  /** Nothing of a group was stored: the series ids it handed out are free again. */
  forget(newSeries: readonly NewSeries[]): void {
    for (const [key, id, cellId, feeder, phase] of newSeries) {
      this.#seriesIds.delete(key);
      this.#pqMarks.delete(id);
      const slots = this.#cellSeries.get(cellId);
      if (slots) slots[(feeder - 1) * 4 + phase] = 0;
    }
    this.#nextSeriesId -= newSeries.length;
  }

  /**
   * Notes that `seriesId` has a PQ record (stored or folded) for `slot`. A series without a
   * known mark stays unknown: it may hold older records, so its records are looked up.
   */
  markPq(seriesId: number, slot: number): void {
    const mark = this.#pqMarks.get(seriesId);
    if (mark !== undefined && slot > mark) this.#pqMarks.set(seriesId, slot);
  }

  /** Whether a PQ record of `seriesId` for `slot` may be stored already (or folded). */
  pqMayExist(seriesId: number, slot: number): boolean {
    return !(slot > (this.#pqMarks.get(seriesId) ?? Infinity));
  }

  /**
   * The watermark of a series (its newest stored row), undefined when it has none, Infinity
   * while it is unknown (every row of it may be stored).
   */
  watermark(seriesId: number): number | undefined {
    return this.#unknownMarks.size && this.#unknownMarks.has(seriesId)
      ? Infinity
      : this.#watermarks.get(seriesId);
  }

  /** The newest stored I/O state of a cell. */
  ioMark(cellId: string): number {
    return this.#ioMarks.get(cellId) ?? -Infinity;
  }

  /**
   * Whether a batch needs a DuckDB lookup: rows at or below their watermark, PQ records at or
   * below theirs (or of a series without one), events, old I/O states.
   */
  needsLookup(p: Prepared): boolean {
    if (p.events.length) return true;
    for (let k = 0; k < p.pq.length; k++) {
      if (this.pqMayExist(p.pqIds[k]!, p.pq[k]!.slot)) return true;
    }
    for (let k = 0; k < p.rows.length; k++) {
      const mark = this.watermark(p.ids[k]!);
      if (mark !== undefined && p.rows[k]!.ts <= mark) return true;
    }
    const ioMark = this.ioMark(p.cellId);
    return p.io.some((s) => s.ts <= ioMark);
  }

  /** Moves watermarks, I/O marks and latest values; returns each touched series' mark before. */
  remember(accepted: readonly Accepted[]): PreviousMarks {
    const previous: PreviousMarks = new Map();
    for (const a of accepted) {
      for (let k = 0; k < a.rows.length; k++) {
        const id = a.ids[k]!;
        const row = a.rows[k]!;
        const mark = this.#watermarks.get(id);
        if (!previous.has(id)) previous.set(id, this.watermark(id));
        if (row.ts > (mark ?? -Infinity)) this.#watermarks.set(id, row.ts);
        this.latest.update(id, row.ts, row.u, row.i, row.values.p, row.values.q, row.values.f);
        // Its fold makes a record of the slot: a device record of it is then looked up.
        if (row.pq) this.markPq(id, row.ts - (row.ts % SLOT_MS));
      }
      a.pq.rows.forEach((record, k) => this.markPq(a.pq.ids[k]!, record.slot));
      for (const s of a.io) {
        if (s.ts > this.ioMark(a.cellId)) this.#ioMarks.set(a.cellId, s.ts);
      }
    }
    return previous;
  }

  #setSeries(cellId: string, feeder: number, phase: number, id: number): void {
    this.#seriesIds.set(`${cellId}|${feeder}|${phase}`, id);
    let slots = this.#cellSeries.get(cellId);
    if (!slots) this.#cellSeries.set(cellId, slots = new Int32Array(24));
    slots[(feeder - 1) * 4 + phase] = id;
  }
}
