/**
 * The measurement store's part of the 10-minute PQ records: a cell's own records (protocol v2)
 * and the folds of protocol v1 PQ values (pq_fold.ts), held in memory and written every few
 * seconds (folds once their slot has closed) together with the journal position a replay must
 * read again from (`journal_position` id JOURNAL_FOLD).
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { appendColumns, type Column } from "./chunk_writer.ts";
import { comparePositions, type JournalPosition } from "./journal.ts";
import { FOLD_MERGE_SQL, FOLD_STAGE_DDL, PqSlotFold } from "./pq_fold.ts";
import { dropTemp, HARMONIC_ORDERS, JOURNAL_FOLD, PQ_ORIGIN } from "./schema.ts";
import type { MeasurementRow } from "./validate.ts";
import type { PqRow } from "./validate_pq.ts";

const SLOT_MS = 10 * 60_000;

/** Series whose PQ record changed, by slot start (for the PQ rollups). */
export type PqChanges = Map<number, Set<number>>;

/** Adds `seriesId` in `slot` to `changes`. */
export function notePqChange(changes: PqChanges, slot: number, seriesId: number): void {
  let ids = changes.get(slot);
  if (!ids) changes.set(slot, ids = new Set());
  ids.add(seriesId);
}

/** A cell's own PQ record waiting for its DuckDB write. */
interface DeviceRecord {
  id: number;
  row: PqRow;
  heldFrom: JournalPosition | null;
}

/** The staging table of a cell's own records (a temporary table of the writer connection). */
const DEVICE_STAGE_DDL =
  "CREATE OR REPLACE TEMP TABLE pq_device_stage AS SELECT * FROM pq_10min LIMIT 0";

/** The columns of `pq_10min` for a cell's own records. */
export function deviceColumns(records: readonly DeviceRecord[]): Column[] {
  const count = records.length;
  const ids = new Int32Array(count);
  const slots = new Float64Array(count);
  const floats = Array.from({ length: 3 + HARMONIC_ORDERS.length }, () => new Float32Array(count));
  records.forEach(({ id, row }, k) => {
    ids[k] = id;
    slots[k] = row.slot;
    floats[0]![k] = row.unbalance;
    floats[1]![k] = row.pst;
    floats[2]![k] = row.plt;
    for (let h = 0; h < HARMONIC_ORDERS.length; h++) floats[3 + h]![k] = row.h ? row.h[h]! : NaN;
  });
  return [
    { type: "integer", data: ids },
    { type: "timestamp", data: slots },
    { type: "utinyint", data: new Uint8Array(count).fill(PQ_ORIGIN.device) },
    { type: "uinteger", data: new Uint32Array(count) },
    { type: "usmallint", data: new Uint16Array(count) },
    { type: "usmallint", data: new Uint16Array(count) },
    ...floats.map((data) => ({ type: "float" as const, data })),
  ];
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

/**
 * The PQ values waiting for their DuckDB write: the running folds of protocol v1 values, by slot
 * start, and the cells' own records (protocol v2), which are written together every few seconds
 * rather than in every group's transaction (a second appender per group would cost the hot
 * path more than the records themselves). The journal keeps what they hold (`heldFrom`).
 */
export class PqFolds {
  readonly #slots = new Map<number, PqSlotFold>();
  /** Device records by `series|slot`. */
  readonly #devices = new Map<string, DeviceRecord>();

  /** Slots folded and device records held. */
  get size(): number {
    return this.#slots.size + this.#devices.size;
  }

  /** Device records held. */
  get devices(): number {
    return this.#devices.size;
  }

  clear(): void {
    this.#slots.clear();
    this.#devices.clear();
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

  /** Holds a cell's own records (series `ids`) for the next write; a held key is kept. */
  addDevices(
    ids: ArrayLike<number>,
    rows: readonly PqRow[],
    heldFrom: JournalPosition | null,
  ): void {
    rows.forEach((row, k) => {
      const key = `${ids[k]}|${row.slot}`;
      if (!this.#devices.has(key)) this.#devices.set(key, { id: ids[k]!, row, heldFrom });
    });
  }

  /** Whether a device record of `series|slot` is held. */
  hasDevice(key: string): boolean {
    return this.#devices.has(key);
  }

  /**
   * The journal position a replay must read again from: the oldest of what is held, or
   * `written` (how far the journal is in DuckDB) when nothing is.
   */
  heldFrom(written: JournalPosition | null): JournalPosition | null {
    return oldest(written, [
      ...[...this.#slots.values()].map((fold) => fold.heldFrom),
      ...[...this.#devices.values()].map((record) => record.heldFrom),
    ]);
  }

  /**
   * Writes every device record held (replacing a folded record of the same key) and merges the
   * folds of the slots closed at `closedBefore` (slot end at or before it) into `pq_10min`, in
   * one transaction with the journal position a replay reads again from; then forgets them.
   * Returns the series written per slot.
   */
  async write(
    c: DuckDBConnection,
    closedBefore: number,
    written: JournalPosition | null,
  ): Promise<PqChanges> {
    const changes: PqChanges = new Map();
    // Taken before the first await: a recovery may clear what is held meanwhile.
    const taken = [...this.#slots].filter(([slot]) => slot + SLOT_MS <= closedBefore);
    const slots = taken.map(([slot]) => slot);
    const devices = [...this.#devices.values()];
    if (!slots.length && !devices.length) return changes;
    // New staging tables each time, dropped after the write (dropTemp).
    await c.run(FOLD_STAGE_DDL);
    await c.run(DEVICE_STAGE_DDL);
    const kept = [...this.#slots].filter(([slot]) => !slots.includes(slot));
    const from = oldest(written, kept.map(([, fold]) => fold.heldFrom));
    if (slots.length) {
      const appender = await c.createAppender("pq_fold_stage", "main", "temp");
      for (const [slot, fold] of taken) {
        appendColumns(appender, fold.columns(slot), fold.size);
        for (const id of fold.seriesIds()) notePqChange(changes, slot, id);
      }
      appender.closeSync();
    }
    if (devices.length) {
      const appender = await c.createAppender("pq_device_stage", "main", "temp");
      appendColumns(appender, deviceColumns(devices), devices.length);
      appender.closeSync();
      for (const { id, row } of devices) notePqChange(changes, row.slot, id);
    }
    await c.run("BEGIN TRANSACTION");
    try {
      if (devices.length) {
        // A device's record wins over the platform's fold of the same slot (a stored device
        // record is a duplicate, refused before it is held; replaced all the same, so that the
        // key stays unique).
        await c.run(
          `DELETE FROM pq_10min USING pq_device_stage d
           WHERE pq_10min.series_id = d.series_id AND pq_10min.slot = d.slot`,
        );
        await c.run("INSERT INTO pq_10min SELECT * FROM pq_device_stage");
      }
      for (const statement of slots.length ? FOLD_MERGE_SQL : []) await c.run(statement);
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
      await dropTemp(c, "pq_fold_stage").catch(() => undefined);
      await dropTemp(c, "pq_device_stage").catch(() => undefined);
    }
    // What was held anew while this write ran (or after a recovery) stays for the next.
    for (const [slot, fold] of taken) if (this.#slots.get(slot) === fold) this.#slots.delete(slot);
    for (const record of devices) {
      const key = `${record.id}|${record.row.slot}`;
      if (this.#devices.get(key) === record) this.#devices.delete(key);
    }
    return changes;
  }
}

/** The oldest of `positions` and `start` (null positions are ignored). */
function oldest(
  start: JournalPosition | null,
  positions: readonly (JournalPosition | null)[],
): JournalPosition | null {
  let out = start;
  for (const p of positions) if (p && (!out || comparePositions(p, out) < 0)) out = p;
  return out;
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
