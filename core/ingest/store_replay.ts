/**
 * What the measurement store does with its journal when it opens or recovers: where DuckDB
 * stands in the journal, the records it lacks, and the PQ values held again in memory.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { comparePositions, type JournalPosition } from "./journal.ts";
import { decodeGroup } from "./journal_codec.ts";
import { windowBit } from "./pq_fold.ts";
import { JOURNAL_FOLD, JOURNAL_RAW } from "./schema.ts";
import type { SeriesIndex } from "./series_index.ts";
import { SLOT_MS, type ValidBatch } from "./store_group.ts";
import { type PqFolds, storedFolds } from "./store_pq.ts";

/** Where DuckDB stands in the journal. */
export interface JournalMarks {
  /** The end of the last record whose rows DuckDB holds (null: none). */
  written: JournalPosition | null;
  /** From where protocol v1 PQ values are folded again (null: none). */
  foldFrom: JournalPosition | null;
  /** The first record to read: the earlier of both. */
  from: JournalPosition | null;
}

/** Reads the journal positions a DuckDB file holds. */
export async function journalMarks(connection: DuckDBConnection): Promise<JournalMarks> {
  const held = new Map(
    ((await connection.runAndReadAll(
      `SELECT id, segment, "offset" FROM journal_position`,
    )).getRows() as [number, bigint | number, bigint | number][]).map((
      [id, segment, offset],
    ) => [id, { segment: Number(segment), offset: Number(offset) }]),
  );
  const written = held.get(JOURNAL_RAW) ?? null;
  // Protocol v1 PQ values of records DuckDB holds but whose fold was not stored yet are
  // folded again from JOURNAL_FOLD on (none before: a file of an earlier release).
  const foldFrom = held.get(JOURNAL_FOLD) ?? written;
  const from = foldFrom && written && comparePositions(foldFrom, written) < 0 ? foldFrom : written;
  return { written, foldFrom, from };
}

/** A journal record's group of batches, as `append` receives them. */
export function decodedGroup(payload: Uint8Array): { cellId: string; batch: ValidBatch }[] {
  return decodeGroup(payload).map((b) => ({
    cellId: b.cellId,
    batch: { measurements: b.rows, pq: b.pq, events: b.events, io: b.io },
  }));
}

/**
 * Holds again the PQ values of journal records whose rows DuckDB holds but whose PQ part was
 * not written: protocol v1 values are folded, except the windows a stored record holds
 * already (or whose series and slot have a device record); a cell's own records are held
 * unless stored.
 */
export async function foldAgain(
  connection: DuckDBConnection,
  index: SeriesIndex,
  folds: PqFolds,
  payloads: readonly Uint8Array[],
  heldFrom: JournalPosition,
): Promise<void> {
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
  const stored = await storedFolds(connection, first, last);
  const skip = (id: number, ts: number) => {
    const windows = stored.get(`${id}|${ts - (ts % SLOT_MS)}`);
    return windows !== undefined && (windows === -1 || (windows & windowBit(ts)) !== 0);
  };
  for (const b of batches) {
    const idOf = (feeder: number, phase: number) => index.knownId(b.cellId, feeder, phase);
    const ids = b.rows.map((row) => idOf(row.feeder, row.phase));
    const rows = b.rows.filter((row, k) => row.pq && ids[k]);
    const kept = ids.filter((id, k) => b.rows[k]!.pq && id);
    folds.add(kept, rows, heldFrom, skip);
    rows.forEach((row, k) => index.markPq(kept[k]!, row.ts - (row.ts % SLOT_MS)));
    const records = b.pq.filter((r) => {
      const id = idOf(r.feeder, r.phase);
      return id && stored.get(`${id}|${r.slot}`) !== -1;
    });
    const recordIds = records.map((r) => idOf(r.feeder, r.phase));
    folds.addDevices(recordIds, records, heldFrom);
    records.forEach((r, k) => index.markPq(recordIds[k]!, r.slot));
  }
}
