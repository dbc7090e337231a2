/**
 * Protocol v1 cells send harmonics, Pst, Plt and unbalance with every 20-s value; the platform
 * folds them into the slot's 10-minute PQ record (docs/ingestion-protocol.md, "Protocol v1"):
 * the RMS of each harmonic, the mean unbalance, the highest Pst and Plt, with the windows folded
 * as a bit mask. The running fold lives in typed arrays per slot (O(1) per value) and is merged
 * into `pq_10min` once the slot has closed (store.ts), in one SQL statement that also merges a
 * stored record (late values) and leaves a device's own record alone.
 *
 * Arithmetic as the SQL of earlier releases: values as FLOAT, squares as FLOAT products, sums in
 * DOUBLE, the result rounded to FLOAT when written.
 */
import type { Column } from "./chunk_writer.ts";
import type { JournalPosition } from "./journal.ts";
import { HARMONIC_ORDERS, PQ_ORIGIN, replaceRows } from "./schema.ts";
import type { PqValues } from "./validate.ts";

const fround = Math.fround;
const HARMONICS = HARMONIC_ORDERS.length;
const INITIAL = 64;
/** Length of a slot and of a window. */
const SLOT_MS = 10 * 60_000;
const WINDOW_MS = 20_000;

/** The bit of the 20-s window starting at `ts` in its slot's `windows` mask. */
export function windowBit(ts: number): number {
  return (1 << Math.floor((ts % SLOT_MS) / WINDOW_MS)) >>> 0;
}

/** The fold of one slot: per series, windows, counts, sums and maxima. */
export class PqSlotFold {
  readonly #index = new Map<number, number>();
  #ids = new Int32Array(INITIAL);
  #windows = new Uint32Array(INITIAL);
  #nH = new Uint16Array(INITIAL);
  #nUnbalance = new Uint16Array(INITIAL);
  #unbalance = new Float64Array(INITIAL);
  #pst = new Float32Array(INITIAL).fill(-Infinity);
  #plt = new Float32Array(INITIAL).fill(-Infinity);
  #squares = new Float64Array(INITIAL * HARMONICS);

  /**
   * @param heldFrom The journal position from which a replay finds every value of this fold
   * (null without a journal).
   */
  constructor(public heldFrom: JournalPosition | null) {}

  /** Series held. */
  get size(): number {
    return this.#index.size;
  }

  /** The series held. */
  seriesIds(): Int32Array {
    return this.#ids.subarray(0, this.size);
  }

  /** Whether the window at `ts` of `seriesId` is folded already. */
  has(seriesId: number, ts: number): boolean {
    const k = this.#index.get(seriesId);
    return k !== undefined && (this.#windows[k]! & windowBit(ts)) !== 0;
  }

  /** Folds the values of the 20-s window at `ts`; a window folded before is skipped. */
  add(seriesId: number, ts: number, pq: PqValues): void {
    let k = this.#index.get(seriesId);
    if (k === undefined) {
      k = this.#index.size;
      if (k === this.#ids.length) this.#grow();
      this.#index.set(seriesId, k);
      this.#ids[k] = seriesId;
    }
    const bit = windowBit(ts);
    if (this.#windows[k]! & bit) return;
    this.#windows[k] = (this.#windows[k]! | bit) >>> 0;
    const unbalance = fround(pq.unbalance);
    if (unbalance === unbalance) {
      this.#unbalance[k]! += unbalance;
      this.#nUnbalance[k]!++;
    }
    const pst = fround(pq.pst);
    if (pst > this.#pst[k]!) this.#pst[k] = pst;
    const plt = fround(pq.plt);
    if (plt > this.#plt[k]!) this.#plt[k] = plt;
    const h = pq.h;
    if (h) {
      this.#nH[k]!++;
      const at = k * HARMONICS;
      for (let n = 0; n < HARMONICS; n++) this.#squares[at + n]! += fround(h[n]! * h[n]!);
    }
  }

  /** The columns of `pq_fold_stage` (FOLD_STAGE_DDL) for every series held. */
  columns(slot: number): Column[] {
    const size = this.size;
    const maximum = (values: Float32Array) =>
      Float32Array.from(values.subarray(0, size), (v) => v === -Infinity ? NaN : v);
    const squares = Array.from({ length: HARMONICS }, (_, n) => {
      const out = new Float64Array(size);
      for (let k = 0; k < size; k++) out[k] = this.#squares[k * HARMONICS + n]!;
      return { type: "double" as const, data: out };
    });
    return [
      { type: "integer", data: this.#ids.slice(0, size) },
      { type: "timestamp", data: new Float64Array(size).fill(slot) },
      { type: "uinteger", data: this.#windows.slice(0, size) },
      { type: "usmallint", data: this.#nH.slice(0, size) },
      { type: "usmallint", data: this.#nUnbalance.slice(0, size) },
      { type: "double", data: this.#unbalance.slice(0, size) },
      { type: "float", data: maximum(this.#pst) },
      { type: "float", data: maximum(this.#plt) },
      ...squares,
    ];
  }

  #grow(): void {
    const size = this.#ids.length * 2;
    const grow = <T extends Int32Array | Uint32Array | Uint16Array | Float64Array | Float32Array>(
      old: T,
      next: T,
    ) => {
      next.set(old as never);
      return next;
    };
    this.#ids = grow(this.#ids, new Int32Array(size));
    this.#windows = grow(this.#windows, new Uint32Array(size));
    this.#nH = grow(this.#nH, new Uint16Array(size));
    this.#nUnbalance = grow(this.#nUnbalance, new Uint16Array(size));
    this.#unbalance = grow(this.#unbalance, new Float64Array(size));
    this.#pst = grow(this.#pst, new Float32Array(size).fill(-Infinity));
    this.#plt = grow(this.#plt, new Float32Array(size).fill(-Infinity));
    this.#squares = grow(this.#squares, new Float64Array(size * HARMONICS));
  }
}

/** The staging table of a fold's merge (a temporary table of the writer connection). */
export const FOLD_STAGE_DDL = `CREATE OR REPLACE TEMP TABLE pq_fold_stage (
  series_id INTEGER, slot TIMESTAMP, windows UINTEGER, n_h USMALLINT, n_unbalance USMALLINT,
  unbalance_sum DOUBLE, pst FLOAT, plt FLOAT,
  ${HARMONIC_ORDERS.map((h) => `h${h}_squares DOUBLE`).join(", ")})`;

const total = (column: string) => `(coalesce(p.${column}, 0) + s.${column})`;

/**
 * Merges `pq_fold_stage` into `pq_10min`: a stored folded record of the same series and slot
 * (late values, or values folded before a restart) is combined with the staged sums through
 * its counts; a device's own record (protocol v2) stays as it is.
 */
export const FOLD_MERGE_SQL = replaceRows(
  "pq_10min",
  "pq_fold_merged",
  `SELECT s.series_id, s.slot, ${PQ_ORIGIN.folded}, coalesce(p.windows, 0) | s.windows,
    ${total("n_h")}, ${total("n_unbalance")},
    (coalesce(p.n_unbalance * p.unbalance::DOUBLE, 0) + s.unbalance_sum)
      / nullif(${total("n_unbalance")}, 0),
    CASE WHEN p.pst IS NULL OR s.pst > p.pst THEN s.pst ELSE p.pst END,
    CASE WHEN p.plt IS NULL OR s.plt > p.plt THEN s.plt ELSE p.plt END,
    ${
    HARMONIC_ORDERS.map((h) =>
      `sqrt((coalesce(p.n_h * p.h${h}::DOUBLE * p.h${h}, 0) + s.h${h}_squares)
      / nullif(${total("n_h")}, 0))`
    ).join(",\n    ")
  }
  FROM pq_fold_stage s LEFT JOIN pq_10min p ON p.series_id = s.series_id AND p.slot = s.slot
  WHERE p.origin IS NULL OR p.origin = ${PQ_ORIGIN.folded}`,
);
