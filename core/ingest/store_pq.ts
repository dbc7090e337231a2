/**
 * The measurement store's part of the 10-minute PQ records: a cell's own records (protocol v2)
 * written in the group's transaction, and the folds of protocol v1 PQ values (pq_fold.ts),
 * written once their slot has closed together with the journal position a replay must fold
 * again from (`journal_position` id JOURNAL_FOLD).
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { appendColumns, type Column } from "./chunk_writer.ts";
import { comparePositions, type JournalPosition } from "./journal.ts";
import { FOLD_MERGE_SQL, FOLD_STAGE_DDL, PqSlotFold } from "./pq_fold.ts";
import { HARMONIC_ORDERS, JOURNAL_FOLD, PQ_ORIGIN } from "./schema.ts";
import type { MeasurementRow } from "./validate.ts";
import type { PqRow } from "./validate_pq.ts";

const SLOT_MS = 10 * 60_000;

/** A cell's PQ records to write, with their series ids. */
export interface DeviceRecords {
  ids: readonly number[];
  rows: readonly PqRow[];
  /** Keys `series|slot` a folded record may hold already: it is replaced. */
  replace: ReadonlySet<string>;
}

/** Series whose PQ record changed, by slot start (for the PQ rollups). */
export type PqChanges = Map<number, Set<number>>;

/** Adds `seriesId` in `slot` to `changes`. */
export function notePqChange(changes: PqChanges, slot: number, seriesId: number): void {
  let ids = changes.get(slot);
  if (!ids) changes.set(slot, ids = new Set());
  ids.add(seriesId);
}

/** The columns of `pq_10min` for a cell's own records. */
function deviceColumns(records: readonly DeviceRecords[]): { columns: Column[]; count: number } {
  const count = records.reduce((n, r) => n + r.rows.length, 0);
  const ids = new Int32Array(count);
  const slots = new Float64Array(count);
  const floats = Array.from({ length: 3 + HARMONIC_ORDERS.length }, () => new Float32Array(count));
  let k = 0;
  for (const r of records) {
    r.rows.forEach((row, j) => {
      ids[k] = r.ids[j]!;
      slots[k] = row.slot;
      floats[0]![k] = row.unbalance;
      floats[1]![k] = row.pst;
      floats[2]![k] = row.plt;
      for (let h = 0; h < HARMONIC_ORDERS.length; h++) floats[3 + h]![k] = row.h ? row.h[h]! : NaN;
      k++;
    });
  }
  return {
    count,
    columns: [
      { type: "integer", data: ids },
      { type: "timestamp", data: slots },
      { type: "utinyint", data: new Uint8Array(count).fill(PQ_ORIGIN.device) },
      { type: "uinteger", data: new Uint32Array(count) },
      { type: "usmallint", data: new Uint16Array(count) },
      { type: "usmallint", data: new Uint16Array(count) },
      ...floats.map((data) => ({ type: "float" as const, data })),
    ],
  };
}

/**
 * Writes a group's device records inside its transaction: a folded record of the same key is
 * deleted first (a device's record replaces the platform's fold), then all are appended.
 */
export async function writeDeviceRecords(
  c: DuckDBConnection,
  records: readonly DeviceRecords[],
): Promise<void> {
  const replace = records.flatMap((r) => [...r.replace]);
  if (replace.length) {
    const keys = replace.map((key) => {
      const [id, slot] = key.split("|");
      return `(${id}, make_timestamp(${Number(slot) * 1000}))`;
    });
    await c.run(
      `DELETE FROM pq_10min USING (VALUES ${keys.join(",")}) AS k(id, slot)
       WHERE pq_10min.series_id = k.id AND pq_10min.slot = k.slot
         AND pq_10min.origin = ${PQ_ORIGIN.folded}`,
    );
  }
  const { columns, count } = deviceColumns(records);
  if (!count) return;
  const appender = await c.createAppender("pq_10min");
  appendColumns(appender, columns, count);
  appender.closeSync();
}

/**
 * Keys `series|slot` of stored device records among `candidates` (`[series, slot]` pairs):
 * their resend is a duplicate.
 */
export async function storedDeviceRecords(
  c: DuckDBConnection,
  candidates: readonly (readonly [number, number])[],
): Promise<Set<string>> {
  const found = new Set<string>();
  if (!candidates.length) return found;
  const values = candidates.map(([id, slot]) => `(${id}, ${slot})`).join(",");
  const rows = (await c.runAndReadAll(
    `SELECT p.series_id, epoch_ms(p.slot) FROM pq_10min p
     JOIN (VALUES ${values}) AS k(series_id, ms)
       ON p.series_id = k.series_id AND p.slot = make_timestamp(k.ms * 1000)
     WHERE p.origin = ${PQ_ORIGIN.device}`,
  )).getRows() as [number, bigint | number][];
  for (const [id, ms] of rows) found.add(`${id}|${Number(ms)}`);
  return found;
}

/** The running folds of protocol v1 PQ values, by slot start. */
export class PqFolds {
  readonly #slots = new Map<number, PqSlotFold>();
  #staged = false;

  /** Slots held. */
  get size(): number {
    return this.#slots.size;
  }

  clear(): void {
    this.#slots.clear();
    this.#staged = false;
  }

  /**
   * Folds the PQ values of `rows` (series `ids`); `heldFrom` is where a replay of the journal
   * finds them (null without a journal). Rows without PQ values are skipped.
   */
  add(
    ids: ArrayLike<number>,
    rows: readonly MeasurementRow[],
    heldFrom: JournalPosition | null,
    skip?: (seriesId: number, ts: number) => boolean,
  ): void {
    for (let k = 0; k < rows.length; k++) {
      const row = rows[k]!;
      if (!row.pq) continue;
      const id = ids[k]!;
      if (skip?.(id, row.ts)) continue;
      const slot = row.ts - (row.ts % SLOT_MS);
      let fold = this.#slots.get(slot);
      if (!fold) this.#slots.set(slot, fold = new PqSlotFold(heldFrom));
      fold.add(id, row.ts, row.pq);
    }
  }

  /**
   * The journal position a replay must fold again from: the oldest of the folds held, or
   * `written` (how far the journal is in DuckDB) when none is held.
   */
  heldFrom(written: JournalPosition | null): JournalPosition | null {
    let oldest = written;
    for (const fold of this.#slots.values()) {
      const from = fold.heldFrom;
      if (from && (!oldest || comparePositions(from, oldest) < 0)) oldest = from;
    }
    return oldest;
  }

  /**
   * Merges the folds of the slots closed at `closedBefore` (slot end at or before it) into
   * `pq_10min` in one transaction with the journal position a replay folds again from, then
   * forgets them. Returns the series written per slot.
   */
  async write(
    c: DuckDBConnection,
    closedBefore: number,
    written: JournalPosition | null,
  ): Promise<PqChanges> {
    const changes: PqChanges = new Map();
    const slots = [...this.#slots.keys()].filter((slot) => slot + SLOT_MS <= closedBefore);
    if (!slots.length) return changes;
    if (!this.#staged) {
      await c.run(FOLD_STAGE_DDL);
      this.#staged = true;
    }
    const kept = [...this.#slots].filter(([slot]) => !slots.includes(slot));
    let from = written;
    for (const [, fold] of kept) {
      const held = fold.heldFrom;
      if (held && (!from || comparePositions(held, from) < 0)) from = held;
    }
    await c.run("DELETE FROM pq_fold_stage");
    const appender = await c.createAppender("pq_fold_stage", "main", "temp");
    for (const slot of slots) {
      const fold = this.#slots.get(slot)!;
      appendColumns(appender, fold.columns(slot), fold.size);
      changes.set(slot, new Set(fold.seriesIds()));
    }
    appender.closeSync();
    await c.run("BEGIN TRANSACTION");
    try {
      await c.run(FOLD_MERGE_SQL);
      if (from) {
        await c.run(
          `INSERT OR REPLACE INTO journal_position VALUES (${JOURNAL_FOLD}, ${from.segment}, ${from.offset})`,
        );
      }
      await c.run("COMMIT");
    } catch (error) {
      await c.run("ROLLBACK").catch(() => undefined);
      throw error;
    } finally {
      await c.run("DELETE FROM pq_fold_stage").catch(() => undefined);
    }
    for (const slot of slots) this.#slots.delete(slot);
    return changes;
  }
}

/**
 * What a replay must not fold again: per `series|slot`, the windows a stored folded record
 * holds, or -1 for a device's record (its values win over any fold).
 */
export async function storedFolds(
  c: DuckDBConnection,
  fromSlot: number,
  toSlot: number,
): Promise<Map<string, number>> {
  const rows = (await c.runAndReadAll(
    `SELECT series_id, epoch_ms(slot), origin, windows FROM pq_10min
     WHERE slot BETWEEN make_timestamp(${fromSlot * 1000}) AND make_timestamp(${toSlot * 1000})`,
  )).getRows() as [number, bigint | number, number, number][];
  const out = new Map<string, number>();
  for (const [id, ms, origin, windows] of rows) {
    out.set(`${id}|${Number(ms)}`, origin === PQ_ORIGIN.device ? -1 : windows);
  }
  return out;
}
