/**
 * The first close of 10-minute slots from their running sums alone (nothing to recompute, no row
 * written yet): the usual close of one slot, and every slot of a backlog that cells send after an
 * outage, written together with one event-flag lookup and one transaction.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { type ClosePartTimings, writeSlices } from "./aggregate_stage.ts";
import type { SlotAccumulator } from "./slot_accumulator.ts";
import { SLOT_MS } from "./store.ts";

/** Rows and slots written together by one batched first close (memory of the staging). */
export const MAX_BATCHED_ROWS = 262_144;
export const MAX_BATCHED_SLOTS = 144;

/** A slot at its first close from running sums alone. */
export interface FirstClose {
  slot: number;
  acc: SlotAccumulator;
}

/**
 * Writes `batch` (slots ascending) into agg_10min; adds the series written to `changedIds` and
 * the time of each part to `parts`.
 */
export async function writeFirstCloses(
  c: DuckDBConnection,
  batch: readonly FirstClose[],
  changedIds: Set<number>,
  parts: ClosePartTimings,
): Promise<void> {
  const mark = performance.now();
  const from = batch[0]!.slot;
  const to = batch.at(-1)!.slot + SLOT_MS;
  // The voltage events of the slots' cells, per series: a slot they overlap is flagged.
  const events = new Map<number, [number, number][]>();
  const found = (await c.runAndReadAll(
    `SELECT DISTINCT s.series_id, epoch_ms(e.start_ts), epoch_ms(e.end_ts)
     FROM voltage_events e JOIN series s ON s.cell_id = e.cell_id
     WHERE e.start_ts < make_timestamp(${to * 1000}) AND e.end_ts >= make_timestamp(${
      from * 1000
    })`,
  )).getRows() as [number, bigint, bigint][];
  for (const [id, start, end] of found) {
    const list = events.get(id) ?? [];
    list.push([Number(start), Number(end)]);
    events.set(id, list);
  }
  parts.flagsMs += performance.now() - mark;
  const pieces = batch.map(({ slot, acc }) => {
    for (const id of acc.seriesIds()) changedIds.add(id);
    const rows = acc.positions();
    const isFlagged = (id: number) =>
      events.get(id)?.some(([start, end]) => start < slot + SLOT_MS && end >= slot) ?? false;
    return {
      count: rows.length,
      slice: (a: number, b: number) => acc.columnsOf(rows.subarray(a, b), slot, isFlagged),
    };
  });
  // None of these rows exist yet (a slot with stored rows is closed again by Aggregator#close).
  await writeSlices(c, pieces, parts);
}
