/**
 * What the measurement store passes between its steps: the batches of a group as they wait, as
 * prepared (series ids), as accepted (what is new), and what a committed group touched.
 */
import type { JournalPosition } from "./journal.ts";
import type { PqChanges } from "./store_pq.ts";
import type { MeasurementRow } from "./validate.ts";
import type { EventRow, IoRow } from "./validate_extras.ts";
import type { PqRow } from "./validate_pq.ts";

export const SLOT_MS = 10 * 60_000;
/**
 * A group stops taking batches at this many measurement rows. It bounds the memory of one
 * transaction inside DuckDB's buffer pool (DUCKDB_MEMORY_LIMIT): a commit that cannot pin a
 * block fails, and under that pressure DuckDB 1.5 was seen to invalidate the database.
 */
export const MAX_GROUP_ROWS = 60_000;
/**
 * A protocol v1 fold is merged into `pq_10min` this long after its slot's end (the grace the
 * aggregation gives the last cells' batches); later values are merged into the stored record.
 */
export const FOLD_GRACE_MS = 60_000;

/** The accepted records of one batch of one cell. */
export interface ValidBatch {
  measurements: readonly MeasurementRow[];
  /** The cell's own 10-minute PQ records (protocol v2). */
  pq?: readonly PqRow[];
  events?: readonly EventRow[];
  io?: readonly IoRow[];
}

/**
 * Outcome of one batch: measurements and PQ records (events and I/O states are deduplicated
 * silently).
 */
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

/** A listener told which series' PQ records changed, by slot start (for the PQ rollups). */
export type PqTouched = (changes: PqChanges) => void;

/** A batch waiting for its group. */
export interface Waiting {
  cellId: string;
  batch: ValidBatch;
  /** batchBytes(batch), counted while it waits. */
  bytes: number;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
}

/** A batch of a group with the series ids of its rows and PQ records. */
export interface Prepared {
  cellId: string;
  rows: readonly MeasurementRow[];
  ids: Int32Array;
  pq: readonly PqRow[];
  pqIds: Int32Array;
  events: EventRow[];
  io: IoRow[];
}

/**
 * What a batch adds to the store: its new rows and PQ records with their series ids, events,
 * I/O states.
 */
export interface Accepted {
  cellId: string;
  ids: number[];
  rows: MeasurementRow[];
  pq: { ids: number[]; rows: PqRow[] };
  events: EventRow[];
  io: IoRow[];
}

/** A series first seen in a group: its key `cell|feeder|phase`, id, cell, feeder and phase. */
export type NewSeries = readonly [string, number, string, number, number];

/** Each touched series' watermark before a group (undefined: it had no row). */
export type PreviousMarks = Map<number, number | undefined>;

/** A journaled group waiting for its DuckDB write. */
export interface Pending {
  accepted: Accepted[];
  newSeries: NewSeries[];
  previous: PreviousMarks;
  /** The journal position right after the group's record; null until it is synced. */
  end: JournalPosition | null;
  rows: number;
  /** Estimated memory its rows hold (batchBytes). */
  bytes: number;
}

/**
 * V8 heap per validated row, measured (scratch probe of validateMeasurements / validatePq on
 * simulated bodies after a collection): a 20-s row about 280 B, plus about 220 B when it carries
 * protocol v1 PQ values; a 10-minute PQ record (35 values) about 600 B; an event or I/O state
 * about 300 B.
 */
const ROW_BYTES = 280;
const ROW_PQ_BYTES = 220;
const PQ_RECORD_BYTES = 600;
const OTHER_BYTES = 300;

/** Estimated memory a batch's rows hold while the store queues them (bounds by bytes). */
export function batchBytes(batch: {
  measurements: readonly MeasurementRow[];
  pq?: readonly unknown[];
  events?: readonly unknown[];
  io?: readonly unknown[];
}): number {
  let bytes = batch.measurements.length * ROW_BYTES;
  for (const row of batch.measurements) if (row.pq) bytes += ROW_PQ_BYTES;
  return bytes + (batch.pq?.length ?? 0) * PQ_RECORD_BYTES +
    ((batch.events?.length ?? 0) + (batch.io?.length ?? 0)) * OTHER_BYTES;
}

/**
 * What is new in prepared batches: rows whose `series|ts` is not stored, PQ records whose
 * `series|slot` is neither stored nor held; and each batch's answer.
 */
export function acceptNew(
  prepared: readonly Prepared[],
  existing: ReadonlySet<string>,
  isKnownRecord: (key: string) => boolean,
): { accepted: Accepted[]; results: AppendResult[] } {
  const accepted = prepared.map((p): Accepted => {
    const out: Accepted = {
      cellId: p.cellId,
      ids: [],
      rows: [],
      pq: { ids: [], rows: [] },
      events: p.events,
      io: p.io,
    };
    for (let k = 0; k < p.rows.length; k++) {
      const row = p.rows[k]!;
      const id = p.ids[k]!;
      if (existing.size && existing.has(`${id}|${row.ts}`)) continue;
      out.ids.push(id);
      out.rows.push(row);
    }
    for (let k = 0; k < p.pq.length; k++) {
      const record = p.pq[k]!;
      const id = p.pqIds[k]!;
      if (isKnownRecord(`${id}|${record.slot}`)) continue;
      out.pq.ids.push(id);
      out.pq.rows.push(record);
    }
    return out;
  });
  const results = accepted.map((a, k) => {
    const stored = a.rows.length + a.pq.rows.length;
    const sent = prepared[k]!.rows.length + prepared[k]!.pq.length;
    return { accepted: stored, duplicates: sent - stored };
  });
  return { accepted, results };
}

/** Which slots a DuckDB write of `accepted` touched, with its rows; null when none. */
export function touchedSlots(
  accepted: readonly Accepted[],
  previous: PreviousMarks,
): TouchedSlots | null {
  const touched = new Set<number>();
  const eventCells = new Map<number, Set<string>>();
  const ids: number[] = [];
  const rows: MeasurementRow[] = [];
  for (const a of accepted) {
    for (let k = 0; k < a.rows.length; k++) {
      const row = a.rows[k]!;
      ids.push(a.ids[k]!);
      rows.push(row);
      touched.add(row.ts - (row.ts % SLOT_MS));
    }
    for (const e of a.events) {
      // A flag may change the aggregate of every slot the event overlaps.
      for (let slot = e.start - (e.start % SLOT_MS); slot <= e.end; slot += SLOT_MS) {
        touched.add(slot);
        const cells = eventCells.get(slot) ?? new Set<string>();
        eventCells.set(slot, cells.add(a.cellId));
      }
    }
  }
  if (!touched.size) return null;
  const previousMarks = new Map<number, number>();
  for (const [id, mark] of previous) if (mark !== undefined) previousMarks.set(id, mark);
  return new TouchedSlots(touched, { ids, rows, previousMarks, eventCells });
}

/** The waiting batches of distinct cells, in arrival order, up to MAX_GROUP_ROWS; and the rest. */
export function takeGroup(waiting: readonly Waiting[]): [Waiting[], Waiting[]] {
  const group: Waiting[] = [];
  const rest: Waiting[] = [];
  const cells = new Set<string>();
  let rows = 0;
  for (const w of waiting) {
    if (cells.has(w.cellId) || (group.length && rows >= MAX_GROUP_ROWS)) {
      rest.push(w);
      continue;
    }
    cells.add(w.cellId);
    group.push(w);
    rows += w.batch.measurements.length + (w.batch.pq?.length ?? 0);
  }
  return [group, rest];
}

/**
 * Takes from the front of `pending` the synced groups of the next DuckDB write (up to
 * MAX_GROUP_ROWS rows, at least one group), in journal order.
 */
export function takePending(pending: Pending[]): Pending[] {
  const take: Pending[] = [];
  let rows = 0;
  while (pending[0]?.end && (!take.length || rows + pending[0].rows <= MAX_GROUP_ROWS)) {
    const next = pending.shift()!;
    take.push(next);
    rows += next.rows;
  }
  return take;
}

/** A series' mark before merged groups: its mark before the first that touched it. */
export function firstMarks(groups: readonly Pending[]): PreviousMarks {
  const previous: PreviousMarks = new Map();
  for (const g of groups) {
    for (const [id, mark] of g.previous) if (!previous.has(id)) previous.set(id, mark);
  }
  return previous;
}
