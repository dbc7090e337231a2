/**
 * 10-minute aggregation on UTC-aligned slots, incremental: every committed row is added to the
 * running sums of its open slot (slot_accumulator.ts), and a slot that closes (its end plus a
 * grace period has passed) is written from those sums without reading raw data back. The SQL
 * below is the reference and the fallback: it recomputes only what memory cannot know exactly
 * (late rows for a series whose slot was already closed or partly stored before a restart, new
 * voltage events of a cell, slots found by `recover`), restricted to those series where it can.
 * Missing slots simply have no row: gaps stay gaps. A slot overlapped by a voltage event of its
 * cell is flagged (IEC 61000-4-30). The 10-minute PQ records have rollups of their own
 * (pq_rollup.ts), refreshed by the same flush.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { appendColumns } from "./chunk_writer.ts";
import {
  type FirstClose,
  MAX_BATCHED_ROWS,
  MAX_BATCHED_SLOTS,
  writeFirstCloses,
} from "./aggregate_first.ts";
import { aggregateSql, ROLLUPS, rollupSql } from "./aggregate_sql.ts";
import { type ClosePartTimings, noParts, writeSlices } from "./aggregate_stage.ts";
import { PqRollups } from "./pq_rollup.ts";
import { dropTemp, inTransaction } from "./schema.ts";
import { SlotAccumulator } from "./slot_accumulator.ts";
import { FOLD_GRACE_MS, SLOT_MS, TouchedSlots } from "./store.ts";
import type { PqChanges } from "./store_pq.ts";

/** Grace after a slot's end before it is aggregated, so the last cells' batches can arrive. */
export const SLOT_GRACE_MS = FOLD_GRACE_MS;

/** What one slot waits for at its close. */
interface SlotWork {
  /** Running sums of the series whose every row of the slot this process saw. */
  acc: SlotAccumulator | null;
  /** Series of `acc` to write at the close; null: all of them (the slot's first close). */
  changed: Set<number> | null;
  /** Recompute the whole slot in SQL (no knowledge of what changed). */
  all: boolean;
  /** Series to recompute in SQL (rows stored before their sums could start). */
  series: Set<number>;
  /** Cells with new voltage events overlapping the slot: their flags may change. */
  eventCells: Set<string>;
}

/**
 * How long a closed slot's sums stay in memory after its close: late rows for its series are
 * added to them and only those series are rewritten, without reading raw data.
 */
const KEEP_CLOSED_MS = 15 * 60_000;
/** Above this many series, one SQL recomputation of the whole slot is cheaper than a list. */
const MAX_LISTED_SERIES = 2_000;
/** Above this many changed series, the rollups of their periods are recomputed for all. */
const MAX_ROLLUP_SERIES = 50_000;
/**
 * A slot closed again for late data of more than MAX_LISTED_SERIES series (cells catching up
 * after an outage) waits this long after its previous close, so that one rewrite takes a
 * minute's late batches instead of every flush rewriting the slot while they arrive. A few
 * series are rewritten at once.
 */
export const RECLOSE_MS = 60_000;

/** The first close of a slot, from its running sums alone: nothing to recompute, no row yet. */
function isFirstClose(work: SlotWork): boolean {
  return work.changed === null && !work.series.size && !work.eventCells.size &&
    (work.acc?.size ?? 0) > 0;
}

/** Which series a flush rewrote 10-minute rows of: the rollups follow only them. */
interface Changed {
  all: boolean;
  ids: Set<number>;
  cells: Set<string>;
}
const sqlText = (text: string) => `'${text.replaceAll("'", "''")}'`;

export type { ClosePartTimings } from "./aggregate_stage.ts";
export { aggregateSql } from "./aggregate_sql.ts";

/** Time the last flush spent, for the benchmarks. */
export interface FlushTimings {
  /** Writing the 10-minute aggregates of the closed slots. */
  closeMs: number;
  /** Refreshing their hourly and daily rollups. */
  rollupMs: number;
  /** Parts of `closeMs` for slots closed from their running sums. */
  parts?: ClosePartTimings;
}

/** Keeps the 10-minute aggregates and their hourly and daily rollups up to date with the raw data. */
export class Aggregator {
  readonly #slots = new Map<number, SlotWork>();
  /** Sums of recently closed slots, kept for late rows (KEEP_CLOSED_MS). */
  readonly #closed = new Map<number, SlotAccumulator>();
  /** When each slot was last closed (flush time), while a large re-close would wait for it. */
  readonly #closedAt = new Map<number, number>();
  #running: Promise<number> | null = null;
  /** The close's parts during a flush (FlushTimings.parts). */
  #parts: ClosePartTimings = noParts();
  readonly #pq: PqRollups;
  /** Time the last flush that wrote slots spent. */
  lastFlush: FlushTimings = { closeMs: 0, rollupMs: 0 };

  constructor(private readonly connection: DuckDBConnection) {
    this.#pq = new PqRollups(connection);
  }

  /** Marks the PQ rollups of changed PQ records (MeasurementStore.onPqChanged). */
  markPqChanged(changes: PqChanges): void {
    this.#pq.mark(changes);
  }

  #work(slot: number): SlotWork {
    let work = this.#slots.get(slot);
    if (!work) {
      const kept = this.#closed.get(slot) ?? null;
      this.#closed.delete(slot);
      work = {
        acc: kept,
        changed: kept ? new Set() : null,
        all: false,
        series: new Set(),
        eventCells: new Set(),
      };
      this.#slots.set(slot, work);
    }
    return work;
  }

  /**
   * Marks slots as needing (re)aggregation. Slots reported by the measurement store come with
   * the rows it committed: they are added to the slots' running sums.
   */
  markDirty(slotStarts: Iterable<number>): void {
    const group = slotStarts instanceof TouchedSlots ? slotStarts.group : null;
    if (!group) {
      for (const slot of slotStarts) this.#recomputeAll(slot);
      return;
    }
    const { ids, rows, previousMarks } = group;
    for (let k = 0; k < rows.length; k++) {
      const row = rows[k]!;
      const id = ids[k]!;
      const slot = row.ts - (row.ts % SLOT_MS);
      const work = this.#work(slot);
      if (work.all) continue;
      if (work.acc?.has(id)) {
        work.acc.add(id, row);
        work.changed?.add(id);
      } else if ((previousMarks.get(id) ?? -Infinity) < slot) {
        // The series had no row at or after this slot's start: its sums start complete.
        (work.acc ??= new SlotAccumulator()).add(id, row);
        work.changed?.add(id);
      } else {
        work.series.add(id);
      }
    }
    for (const [slot, cells] of group.eventCells) {
      const work = this.#work(slot);
      for (const cell of cells) work.eventCells.add(cell);
    }
  }

  /** Marks a slot for a full SQL recomputation; its sums, which would miss rows, are dropped. */
  #recomputeAll(slot: number): void {
    const work = this.#work(slot);
    work.all = true;
    work.acc = null;
  }

  /**
   * After a restart the in-memory state is gone: marks every slot of the last `days` days
   * whose raw rows and aggregates disagree (never aggregated, or late data before the stop) or
   * whose event flag misses a stored voltage event (an event stored just before the stop).
   * Slots are compared by their totals: an aggregate never counts more rows than its series has
   * stored in the slot, so a slot holds more raw rows than its aggregates count exactly when one
   * of its series does (fewer: raw rows past their lifetime). Per series and slot, the same
   * comparison read 25 s at 5,000 cells with one day stored, on the way to ready.
   */
  async recover(days = 2, now = Date.now()): Promise<number> {
    const since = Math.floor((now - days * 86_400_000) / SLOT_MS) * SLOT_MS * 1000;
    const result = await this.connection.runAndReadAll(
      `WITH raw AS (
         SELECT time_bucket(INTERVAL 10 MINUTE, ts) AS slot, count(*) AS n
         FROM raw_measurements WHERE ts >= make_timestamp(${since}) GROUP BY ALL),
       agg AS (
         SELECT slot, sum(n) AS n FROM agg_10min WHERE slot >= make_timestamp(${since})
         GROUP BY ALL)
       SELECT epoch_ms(raw.slot) FROM raw LEFT JOIN agg USING (slot)
       WHERE agg.n IS NULL OR raw.n > agg.n
       UNION
       SELECT DISTINCT epoch_ms(a.slot) FROM agg_10min a
       JOIN series s ON s.series_id = a.series_id
       JOIN voltage_events e ON e.cell_id = s.cell_id
         AND e.start_ts < a.slot + INTERVAL 10 MINUTE AND e.end_ts >= a.slot
       WHERE a.slot >= make_timestamp(${since}) AND e.end_ts >= make_timestamp(${since})
         AND NOT a.flagged`,
    );
    const slots = (result.getRows() as [bigint | number][]).map(([ms]) => Number(ms));
    this.markDirty(slots);
    await this.#pq.recover(since / 1000);
    return slots.length;
  }

  /** Slots waiting for aggregation (open ones included). */
  get pending(): number {
    return this.#slots.size;
  }

  /**
   * Aggregates every dirty slot that is closed at `now` and refreshes the PQ rollups of changed
   * PQ records; returns how many 10-minute slots were written.
   */
  flush(now = Date.now()): Promise<number> {
    // One flush at a time; a caller arriving meanwhile waits for it and then runs its own.
    const run = (this.#running ?? Promise.resolve(0)).then(async () => {
      const slots = await this.#flush(now);
      await this.#pq.flush();
      return slots;
    });
    // The queue itself never rejects: a failed flush is its caller's to handle, and an
    // unhandled rejection would end the process (seen with a full disk).
    const settled: Promise<number> = run.catch(() => 0);
    this.#running = settled;
    void settled.then(() => {
      if (this.#running === settled) this.#running = null;
    });
    return run;
  }

  /** Whether a slot closed at most RECLOSE_MS ago waits with a large rewrite. */
  #waits(slot: number, now: number): boolean {
    const at = this.#closedAt.get(slot);
    if (at === undefined || at + RECLOSE_MS <= now) return false;
    const work = this.#slots.get(slot)!;
    return work.all || work.series.size + (work.changed?.size ?? 0) > MAX_LISTED_SERIES;
  }

  async #flush(now: number): Promise<number> {
    for (const [slot, at] of this.#closedAt) {
      if (at + RECLOSE_MS <= now) this.#closedAt.delete(slot);
    }
    const closed = [...this.#slots.keys()]
      .filter((slot) => slot + SLOT_MS + SLOT_GRACE_MS <= now && !this.#waits(slot, now))
      .sort((a, b) => a - b);
    for (const slot of this.#closed.keys()) {
      if (slot + SLOT_MS + SLOT_GRACE_MS + KEEP_CLOSED_MS <= now) this.#closed.delete(slot);
    }
    if (!closed.length) return 0;
    const works = closed.map((slot) => this.#slots.get(slot)!);
    for (const slot of closed) this.#slots.delete(slot);
    const started = performance.now();
    this.#parts = noParts();
    try {
      const whole = closed.filter((_, k) => works[k]!.all);
      const changed: Changed = { all: whole.length > 0, ids: new Set(), cells: new Set() };
      // Chunks keep the WHERE clause small during a backfill of weeks.
      for (let k = 0; k < whole.length; k += 144) {
        await inTransaction(this.connection, aggregateSql(whole.slice(k, k + 144)));
      }
      // Slots closed for the first time from their running sums alone (the usual close, and
      // every slot of a backlog that cells send after an outage) are written together.
      let first: FirstClose[] = [];
      let firstRows = 0;
      for (let k = 0; k < closed.length; k++) {
        const work = works[k]!;
        const slot = closed[k]!;
        if (work.all) continue;
        if (isFirstClose(work)) {
          first.push({ slot, acc: work.acc! });
          firstRows += work.acc!.size;
          if (firstRows < MAX_BATCHED_ROWS && first.length < MAX_BATCHED_SLOTS) continue;
          await this.#closeFirst(first, changed);
          first = [];
          firstRows = 0;
          continue;
        }
        await this.#close(slot, work, changed);
        if (work.acc) this.#closed.set(slot, work.acc);
      }
      if (first.length) await this.#closeFirst(first, changed);
      // Harmonics are counted over unflagged slots: hours whose slots got flags roll up again.
      await this.#pq.markFlagged(closed);
      const closedAt = performance.now();
      // Partial hours and days are rolled up too and refreshed as their slots close, for the
      // series whose 10-minute rows changed.
      const where = await this.#rollupFilter(changed);
      for (const level of where ? ROLLUPS : []) {
        const starts = [...new Set(closed.map((slot) => slot - (slot % level.ms)))];
        for (let k = 0; k < starts.length; k += 48) {
          const chunk = starts.slice(k, k + 48);
          const periods = chunk.map((start) => `make_timestamp(${start * 1000})`).join(",");
          await inTransaction(this.connection, [
            `DELETE FROM ${level.table} WHERE slot IN (${periods}) AND (${where})`,
            rollupSql(level, chunk, where!),
          ]);
        }
      }
      this.lastFlush = {
        closeMs: closedAt - started,
        rollupMs: performance.now() - closedAt,
        parts: this.#parts,
      };
      for (const slot of closed) this.#closedAt.set(slot, now);
    } catch (error) {
      // What was written is exact; what was not is recomputed from the raw data next time.
      for (const slot of closed) {
        this.#closed.delete(slot);
        this.#recomputeAll(slot);
      }
      throw error;
    }
    return closed.length;
  }

  /** Writes slots at their first close together (aggregate_first.ts) and keeps their sums. */
  async #closeFirst(batch: readonly FirstClose[], changed: Changed): Promise<void> {
    await writeFirstCloses(this.connection, batch, changed.ids, this.#parts);
    for (const { slot, acc } of batch) this.#closed.set(slot, acc);
  }

  /**
   * Writes one slot closed again (late rows, new voltage events) or with series memory cannot
   * know: SQL for those, the running sums for the rest.
   */
  async #close(slot: number, work: SlotWork, changed: Changed): Promise<void> {
    const c = this.connection;
    const conditions: string[] = [];
    if (work.series.size > MAX_LISTED_SERIES) conditions.push("TRUE");
    else if (work.series.size) conditions.push(`r.series_id IN (${[...work.series].join(",")})`);
    if (work.eventCells.size) {
      conditions.push(`s.cell_id IN (${[...work.eventCells].map(sqlText).join(",")})`);
    }
    if (conditions.length) await inTransaction(c, aggregateSql([slot], conditions.join(" OR ")));
    if (conditions[0] === "TRUE") changed.all = true;
    for (const id of work.series) changed.ids.add(id);
    for (const cell of work.eventCells) changed.cells.add(cell);
    const acc = work.acc;
    if (!acc?.size || conditions[0] === "TRUE" || work.changed?.size === 0) return;
    for (const id of work.changed ?? acc.seriesIds()) changed.ids.add(id);
    const from = slot * 1000;
    let mark = performance.now();
    const lap = (part: "flagsMs" | "writeMs") => {
      const at = performance.now();
      this.#parts[part] += at - mark;
      mark = at;
    };
    const flagged = new Set(
      ((await c.runAndReadAll(
        `SELECT DISTINCT s.series_id FROM voltage_events e JOIN series s ON s.cell_id = e.cell_id
         WHERE e.start_ts < make_timestamp(${from + SLOT_MS * 1000})
           AND e.end_ts >= make_timestamp(${from})`,
      )).getRows() as [number][]).map(([id]) => id),
    );
    lap("flagsMs");
    const rows = acc.positions(work.changed ?? undefined);
    const isFlagged = (id: number) => flagged.has(id);
    const slice = (start: number, end: number) =>
      acc.columnsOf(rows.subarray(start, end), slot, isFlagged);
    // Rows written before for the same series (an earlier close, a recomputation above) are
    // replaced: the table has no primary key (schema.ts SLOT_TABLES), the DELETE of those keys
    // in the same transaction keeps it exact.
    await c.run("CREATE OR REPLACE TEMP TABLE agg_written (series_id INTEGER)");
    const written = await c.createAppender("agg_written", "main", "temp");
    const ids = work.changed ? Int32Array.from(work.changed) : acc.seriesIds();
    appendColumns(written, [{ type: "integer", data: ids }], ids.length);
    written.closeSync();
    lap("writeMs");
    await writeSlices(c, [{ count: rows.length, slice }], this.#parts, [
      `DELETE FROM agg_10min WHERE slot = make_timestamp(${from})
        AND series_id IN (SELECT series_id FROM temp.main.agg_written)`,
    ]);
    await dropTemp(c, "agg_written");
  }

  /**
   * The condition on `series_id` selecting the changed series (staged in a temporary table),
   * "TRUE" for all of them, or null when nothing changed.
   */
  async #rollupFilter(changed: Changed): Promise<string | null> {
    if (changed.all) return "TRUE";
    const c = this.connection;
    if (changed.cells.size) {
      const cells = [...changed.cells].map(sqlText).join(",");
      const rows = (await c.runAndReadAll(
        `SELECT series_id FROM series WHERE cell_id IN (${cells})`,
      )).getRows() as [number][];
      for (const [id] of rows) changed.ids.add(id);
    }
    if (!changed.ids.size) return null;
    if (changed.ids.size > MAX_ROLLUP_SERIES) return "TRUE";
    await c.run("CREATE OR REPLACE TEMP TABLE agg_changed (series_id INTEGER)");
    const appender = await c.createAppender("agg_changed", "main", "temp");
    const ids = Int32Array.from(changed.ids);
    appendColumns(appender, [{ type: "integer", data: ids }], ids.length);
    appender.closeSync();
    return "series_id IN (SELECT series_id FROM agg_changed)";
  }
}
