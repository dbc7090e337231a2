/**
 * Bulk history of simulated cells straight into the measurement store (the demo's backfill):
 * the simulator's column fast path instead of protocol batches, so no JSON-shaped records and
 * no text timestamps are built, whole 10-minute slots (30 windows) of every cell at a time (several
 * when the cells are few), all cells' batches committed together by the store's group commit. The cells speak protocol v2:
 * each slot's PQ records are folded on the "device" from its windows and stored when the window
 * that `generateBatch` sends them with is in the range and the cell online then. Measurement values come from the
 * simulator, which generates within the protocol limits (PROTOCOL_LIMITS); its voltage events
 * and I/O states pass the protocol's validation, which also classifies the events.
 */
import {
  allocateColumns,
  DevicePqFold,
  generateColumns,
  isOffline,
  type MeasurementColumns,
  PQ_SLOT_MS,
  pqDelayWindows,
  type ProtocolVersion,
  rowsPerWindow,
  type SimCell,
  WINDOW_MS,
  type WindowRecords,
} from "../simulator/mod.ts";
import type { MeasurementStore, ValidBatch } from "./store.ts";
import type { MeasurementRow, ValidationContext } from "./validate.ts";
import { validateEvents, validateIo } from "./validate_extras.ts";
import { validatePq } from "./validate_pq.ts";

const WINDOWS_PER_STEP = 30;
/** Rows of all cells a round of batches holds at most (unless one slot has more). */
const ROUND_ROWS = 50_000;

/** A batch being filled: ValidBatch's lists, writable. */
type SimBatch = { -readonly [K in keyof ValidBatch]-?: NonNullable<ValidBatch[K]>[number][] };
const emptyBatch = (): SimBatch => ({ measurements: [], pq: [], events: [], io: [] });

/**
 * Stores every window starting in [fromMs, toMs) of `cells`, oldest first; returns the rows
 * accepted once they are in DuckDB. Idempotent like any batch: windows already stored count as
 * duplicates.
 */
export async function storeSimulatedRange(
  store: MeasurementStore,
  cells: readonly SimCell[],
  fromMs: number,
  toMs: number,
  seed: number,
  ctx: Omit<ValidationContext, "feederSlots">,
  signal?: AbortSignal,
): Promise<number> {
  const cols = allocateColumns(rowsPerWindow(cells) * WINDOWS_PER_STEP);
  let accepted = 0;
  // The limits validation puts on any record's time: within the raw-data lifetime, not ahead.
  const first = Math.ceil(Math.max(fromMs, ctx.oldest) / WINDOW_MS) * WINDOW_MS;
  const end = Math.min(toMs, ctx.now + WINDOW_MS);
  const context = { ...ctx, feederSlots: [], protocol: 2 as const };
  // Few cells: several slots per batch, so that each write's fixed costs (the journal's sync,
  // DuckDB's commit) spread over ROUND_ROWS rows rather than one slot's.
  const slotsPerRound = Math.max(
    1,
    Math.floor(ROUND_ROWS / (rowsPerWindow(cells) * WINDOWS_PER_STEP)),
  );
  let round = cells.map(emptyBatch);
  let slotsInRound = 0;
  const send = async () => {
    const batches = round;
    round = cells.map(emptyBatch);
    slotsInRound = 0;
    const results = await Promise.all(
      cells.map((cell, c) => store.append(cell.cellId, batches[c]!)),
    );
    for (const result of results) accepted += result.accepted;
  };
  // Whole slots, so that a slot's PQ record covers its windows as the device's would; only the
  // windows in [first, end) are stored, and a record when the window it is sent with is.
  for (
    let slot = first - (first % PQ_SLOT_MS);
    slot < end && !signal?.aborted;
    slot += PQ_SLOT_MS
  ) {
    const records = cells.map((): WindowRecords => ({ events: [], io: [] }));
    let count = 0;
    for (let w = slot; w < slot + WINDOWS_PER_STEP * WINDOW_MS; w += WINDOW_MS) {
      count += generateColumns(cells, w, seed, cols, count, (c, window) => {
        if (w < first || w >= end) return;
        records[c]!.events.push(...window.events);
        records[c]!.io.push(...window.io);
      });
    }
    const folds = cells.map(() => new DevicePqFold());
    for (let r = 0; r < count; r++) {
      const c = cols.cell[r]!;
      folds[c]!.add(cols, r);
      const ts = cols.ts[r]!;
      if (ts >= first && ts < end) round[c]!.measurements.push(columnRow(cols, r));
    }
    cells.forEach((cell, c) => {
      const sent = slot + PQ_SLOT_MS + (pqDelayWindows(cell) - 1) * WINDOW_MS;
      const pq = sent >= first && sent < end && !isOffline(cell, sent)
        ? folds[c]!.records(slot)
        : [];
      const batch = round[c]!;
      batch.pq.push(...validatePq(pq, context).rows);
      batch.events.push(...validateEvents(records[c]!.events, context).rows);
      batch.io.push(...validateIo(records[c]!.io, context).rows);
    });
    if (++slotsInRound === slotsPerRound) await send();
  }
  if (slotsInRound) await send();
  // Acknowledged is journaled; the history is queried next, so it must be in DuckDB.
  await store.flush();
  return accepted;
}

/**
 * Row `r` of the simulator's columns as the store takes it (the neutral probe has no voltage):
 * protocol v2 by default, v1 with the 20-s PQ values the platform folds.
 */
export function columnRow(
  cols: MeasurementColumns,
  r: number,
  protocol: ProtocolVersion = 2,
): MeasurementRow {
  const neutral = cols.phase[r] === 3;
  const pq = protocol === 1 && !neutral
    ? {
      unbalance: cols.unbalance[r]!,
      pst: cols.pst[r]!,
      plt: cols.plt[r]!,
      h: Float32Array.from(cols.hU.subarray(r * 24, r * 24 + 24)),
    }
    : null;
  return {
    ts: cols.ts[r]!,
    feeder: cols.feeder[r]!,
    phase: cols.phase[r]!,
    u: neutral ? NaN : cols.u[r]!,
    i: cols.i[r]!,
    values: {
      p: cols.p[r]!,
      q: cols.q[r]!,
      pf: cols.pf[r]!,
      thd_u: cols.thdU[r]!,
      thd_i: cols.thdI[r]!,
      f: cols.f[r]!,
    },
    pq,
  };
}
