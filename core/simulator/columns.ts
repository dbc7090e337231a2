/**
 * Column buffers for the backfill fast path: one typed array per field, filled row by row
 * without creating objects. A row is one feeder and probe of one cell in one window.
 */
import type { SimCell } from "./topology.ts";

/** Probe codes of the `phase` column. */
export const PHASE_CODES = { L1: 0, L2: 1, L3: 2, N: 3 } as const;

/** Probe names by code, the reverse of `PHASE_CODES`. */
export const PHASE_NAMES = ["L1", "L2", "L3", "N"] as const;

/**
 * Preallocated measurement columns. Fields a row does not carry (everything but `i` on the
 * neutral) hold NaN. `hU` holds 24 harmonics per row: harmonic n of row r at `r * 24 + n - 2`.
 */
export interface MeasurementColumns {
  readonly capacity: number;
  /** Window start, epoch ms. */
  readonly ts: Float64Array;
  /** Index of the cell in the `cells` array given to `generateColumns`. */
  readonly cell: Int32Array;
  /** Feeder slot 1..6. */
  readonly feeder: Uint8Array;
  /** `PHASE_CODES`: 0 L1, 1 L2, 2 L3, 3 N. */
  readonly phase: Uint8Array;
  readonly u: Float64Array;
  readonly i: Float64Array;
  readonly p: Float64Array;
  readonly q: Float64Array;
  readonly pf: Float64Array;
  readonly thdU: Float64Array;
  readonly thdI: Float64Array;
  readonly f: Float64Array;
  readonly unbalance: Float64Array;
  readonly pst: Float64Array;
  readonly plt: Float64Array;
  readonly hU: Float64Array;
}

/** Allocates columns for `capacity` rows. */
export function allocateColumns(capacity: number): MeasurementColumns {
  if (!Number.isInteger(capacity) || capacity < 0) {
    throw new RangeError(`Cannot allocate columns: capacity ${capacity} is not a whole number`);
  }
  const float = () => new Float64Array(capacity);
  return {
    capacity,
    ts: float(),
    cell: new Int32Array(capacity),
    feeder: new Uint8Array(capacity),
    phase: new Uint8Array(capacity),
    u: float(),
    i: float(),
    p: float(),
    q: float(),
    pf: float(),
    thdU: float(),
    thdI: float(),
    f: float(),
    unbalance: float(),
    pst: float(),
    plt: float(),
    hU: new Float64Array(capacity * 24),
  };
}

/** Rows one window of `cells` fills at most (4 probes per feeder, offline cells fill none). */
export function rowsPerWindow(cells: readonly SimCell[]): number {
  let rows = 0;
  for (const cell of cells) rows += cell.feeders.length * 4;
  return rows;
}
