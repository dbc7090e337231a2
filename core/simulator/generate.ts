/**
 * Deterministic batches of simulated cells: one window as a protocol batch, a range of windows
 * for backfill, and a column fast path for bulk loading. Same (cell, window, seed), same output.
 */
import { cellPlan, isOffline, type WindowContext, windowContext } from "./_context.ts";
import { simulateCell, type WindowExtras } from "./_cell_model.ts";
import { batchId, deviceStatus, ioRecords, sendDelayMs } from "./device.ts";
import { allocateColumns, type MeasurementColumns, PHASE_NAMES, rowsPerWindow } from "./columns.ts";
import { DevicePqFold } from "./pq_record.ts";
import {
  type Batch,
  type IoRecord,
  isoMillis,
  isoSeconds,
  type LinePhase,
  type Measurement,
  type PqRecord,
  type ProtocolVersion,
  type VoltageEvent,
  WINDOW_MS,
} from "./protocol.ts";
import type { SimCell } from "./topology.ts";
import type { PlannedEvent } from "./voltage_events.ts";

const LINE_PHASES: readonly LinePhase[] = ["L1", "L2", "L3"];

function assertWindow(windowStartMs: number): void {
  if (!Number.isSafeInteger(windowStartMs) || windowStartMs % WINDOW_MS !== 0) {
    throw new RangeError(
      `Cannot generate window ${windowStartMs}: the start is not a multiple of 20 s (epoch ms)`,
    );
  }
}

/** Scratch columns for one cell's window: at most 6 feeders x 4 probes. */
const cellColumns = allocateColumns(24);
/** Scratch columns for the windows of a slot's PQ record. */
const slotColumns = allocateColumns(24);

/** Length of the slot a protocol v2 PQ record covers. */
export const PQ_SLOT_MS = 10 * 60_000;

function measurementAt(
  cols: MeasurementColumns,
  r: number,
  ts: string,
  protocol: ProtocolVersion,
): Measurement {
  const phase = PHASE_NAMES[cols.phase[r]!]!;
  if (phase === "N") return { ts, feeder: cols.feeder[r]!, phase, i: cols.i[r]! };
  const hot = {
    ts,
    feeder: cols.feeder[r]!,
    phase,
    u: cols.u[r]!,
    i: cols.i[r]!,
    p: cols.p[r]!,
    q: cols.q[r]!,
    pf: cols.pf[r]!,
    thd_u: cols.thdU[r]!,
    thd_i: cols.thdI[r]!,
    f: cols.f[r]!,
  };
  if (protocol === 2) return hot;
  const harmonics: number[] = [];
  for (let n = r * 24; n < r * 24 + 24; n++) harmonics.push(cols.hU[n]!);
  return {
    ...hot,
    unbalance: cols.unbalance[r]!,
    h_u: harmonics,
    pst: cols.pst[r]!,
    plt: cols.plt[r]!,
  };
}

/**
 * Windows after a slot's end with which `cell` sends the slot's PQ records (0..29): a cell
 * spreads them over the next slot by a delay of its own, as docs/ingestion-protocol.md asks,
 * so that a utility's records do not all arrive in one tick.
 */
export function pqDelayWindows(cell: SimCell): number {
  return cellPlan(cell).key % (PQ_SLOT_MS / WINDOW_MS);
}

/**
 * The start of the slot whose PQ records `cell` sends with the window starting at
 * `windowStartMs`, or null when that window carries none.
 */
export function pqSlotSentAt(cell: SimCell, windowStartMs: number): number | null {
  const slot = windowStartMs + WINDOW_MS - PQ_SLOT_MS - pqDelayWindows(cell) * WINDOW_MS;
  return slot % PQ_SLOT_MS === 0 ? slot : null;
}

/**
 * The protocol v2 PQ records of `cell` for the slot starting at `slotMs`: folded on the device
 * from the slot's windows in which the cell was online.
 */
export function slotPqRecords(cell: SimCell, slotMs: number, seed: number): PqRecord[] {
  const plan = cellPlan(cell);
  const fold = new DevicePqFold();
  for (let w = slotMs; w < slotMs + PQ_SLOT_MS; w += WINDOW_MS) {
    if (isOffline(cell, w)) continue;
    const rows = simulateCell(windowContext(w, seed), plan, 0, slotColumns, 0);
    for (let r = 0; r < rows; r++) fold.add(slotColumns, r);
  }
  return fold.records(slotMs);
}

function eventRecord(
  cellKey: number,
  ctx: WindowContext,
  event: PlannedEvent,
  n: number,
): VoltageEvent {
  return {
    // Unique over cells too: grid-wide dips share their window.
    id: `evt-${cellKey.toString(36)}-${ctx.windowIndex.toString(36)}-${n}`,
    type: event.type,
    start: isoMillis(event.startMs),
    end: isoMillis(event.endMs),
    start_phase: LINE_PHASES[event.startPhase]!,
    end_phase: LINE_PHASES[event.endPhase]!,
    extreme_pct: event.extremePct,
    delta_u_pct: event.deltaUPct,
    rms_trace: { interval_ms: event.intervalMs, values_pct: event.trace },
  };
}

/**
 * The batch `cell` sends for the 20-s window starting at `windowStartMs` (epoch ms, a multiple
 * of 20 000), or `null` while the cell is offline. Pure: the same cell, window and seed give an
 * identical batch, including `batch_id`, so a retry or a regenerated backfill is idempotent.
 * Protocol v2 (the default) sends harmonics, Pst, Plt and unbalance as 10-minute records, each
 * slot's with one window of the next slot (`pqSlotSentAt`); protocol v1 sends them with every
 * 20-s measurement.
 */
export function generateBatch(
  cell: SimCell,
  windowStartMs: number,
  seed: number,
  protocol: ProtocolVersion = 2,
): Batch | null {
  assertWindow(windowStartMs);
  if (isOffline(cell, windowStartMs)) return null;
  const plan = cellPlan(cell);
  const ctx = windowContext(windowStartMs, seed);
  const extras: WindowExtras = { events: [], boiler: 0, loadFactor: 0 };
  const rows = simulateCell(ctx, plan, 0, cellColumns, 0, extras);
  const ts = isoSeconds(windowStartMs);
  const measurements: Measurement[] = [];
  for (let r = 0; r < rows; r++) measurements.push(measurementAt(cellColumns, r, ts, protocol));
  const common = {
    batch_id: batchId(plan, ctx),
    sent_at: isoSeconds(windowStartMs + WINDOW_MS + sendDelayMs(plan, ctx)),
    device: deviceStatus(plan, ctx, extras.loadFactor),
    measurements,
  };
  const io = ioRecords(plan, ctx, ts, extras.boiler);
  const events = extras.events.map((event, n) => eventRecord(plan.key, ctx, event, n));
  if (protocol === 1) return { ...common, io, events };
  const slot = pqSlotSentAt(cell, windowStartMs);
  const pq = slot === null ? [] : slotPqRecords(cell, slot, seed);
  return { protocol: 2, ...common, ...(pq.length ? { pq } : {}), io, events };
}

/**
 * The batches of `cell` for every window starting in [fromMs, toMs), oldest first, skipping
 * offline windows: for a backfill over HTTP. `fromMs` is rounded up to a window start.
 */
export function* generateRange(
  cell: SimCell,
  fromMs: number,
  toMs: number,
  seed: number,
  protocol: ProtocolVersion = 2,
): Generator<Batch, void, undefined> {
  for (let w = Math.ceil(fromMs / WINDOW_MS) * WINDOW_MS; w < toMs; w += WINDOW_MS) {
    const batch = generateBatch(cell, w, seed, protocol);
    if (batch !== null) yield batch;
  }
}

/** The voltage events and I/O states of one cell's window, in the protocol's shape. */
export interface WindowRecords {
  events: VoltageEvent[];
  io: IoRecord[];
}

/**
 * Fast path for bulk loads: writes one window of every online cell into `columns` from row
 * `offset` on (column `cell` holds the index into `cells`) and returns the number of rows
 * written. Values equal those of `generateBatch`; events and I/O states, which the columns do
 * not hold, go to `onRecords` when given (the same records `generateBatch` sends).
 * Allocates nothing per row; reuse the columns across windows.
 */
export function generateColumns(
  cells: readonly SimCell[],
  windowStartMs: number,
  seed: number,
  columns: MeasurementColumns,
  offset = 0,
  onRecords?: (cellIndex: number, records: WindowRecords) => void,
): number {
  assertWindow(windowStartMs);
  const needed = offset + rowsPerWindow(cells);
  if (needed > columns.capacity) {
    throw new RangeError(
      `Cannot generate window ${windowStartMs}: ${needed} rows needed, capacity ${columns.capacity}`,
    );
  }
  const ctx = windowContext(windowStartMs, seed);
  const ts = onRecords ? isoSeconds(windowStartMs) : "";
  let row = offset;
  for (let c = 0; c < cells.length; c++) {
    const cell = cells[c]!;
    if (isOffline(cell, windowStartMs)) continue;
    const plan = cellPlan(cell);
    if (!onRecords) {
      row += simulateCell(ctx, plan, c, columns, row);
      continue;
    }
    const extras: WindowExtras = { events: [], boiler: 0, loadFactor: 0 };
    row += simulateCell(ctx, plan, c, columns, row, extras);
    onRecords(c, {
      events: extras.events.map((event, n) => eventRecord(plan.key, ctx, event, n)),
      io: ioRecords(plan, ctx, ts, extras.boiler),
    });
  }
  return row - offset;
}
