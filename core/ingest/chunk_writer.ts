/**
 * Writes measurement rows to the DuckDB appender as whole data chunks: each column is filled in
 * a typed array and copied to the chunk's native vector once per 2,048 rows, with a validity
 * mask written once per column (NaN = NULL). No per-value wrapper, BigInt or native call: the
 * node API's `setItem` costs BigInt arithmetic per value once a column holds a NULL.
 */
import duckdb from "@duckdb/node-bindings";
import { type DuckDBAppender, DuckDBDataChunk, FLOAT, INTEGER, TIMESTAMP } from "@duckdb/node-api";
import { HARMONIC_ORDERS } from "./schema.ts";
import { type MeasurementRow, OPTIONAL_FIELDS, type OptionalField } from "./validate.ts";

const OPTIONAL_NAMES = Object.keys(OPTIONAL_FIELDS) as OptionalField[];
const FLOAT_COLUMNS = 2 + OPTIONAL_NAMES.length + HARMONIC_ORDERS.length;
/** Column types of raw_measurements, in table order. */
const TYPES = [INTEGER, TIMESTAMP, ...Array.from({ length: FLOAT_COLUMNS }, () => FLOAT)];
const CHUNK_ROWS = 2048;
const HARMONIC_BASE = 2 + OPTIONAL_NAMES.length;

/** Reusable typed arrays of one chunk of raw_measurements. */
class ChunkColumns {
  readonly series = new Int32Array(CHUNK_ROWS);
  /** TIMESTAMP as int64 microseconds, written as two little-endian 32-bit halves. */
  readonly micros = new Uint32Array(CHUNK_ROWS * 2);
  readonly floats = Array.from({ length: FLOAT_COLUMNS }, () => new Float32Array(CHUNK_ROWS));
  readonly validity = Array.from({ length: FLOAT_COLUMNS }, () => new Uint32Array(CHUNK_ROWS / 32));
  readonly hasNull = new Uint8Array(FLOAT_COLUMNS);

  reset(): void {
    for (const mask of this.validity) mask.fill(0xffffffff);
    this.hasNull.fill(0);
  }

  setTimestamp(r: number, ms: number): void {
    const micros = ms * 1000; // exact below 2^53 (until the year 2255)
    const high = Math.floor(micros / 4294967296);
    this.micros[2 * r] = micros - high * 4294967296;
    this.micros[2 * r + 1] = high;
  }

  setFloat(c: number, r: number, value: number): void {
    this.floats[c]![r] = value;
    if (value !== value) { // NaN: NULL
      this.validity[c]![r >>> 5]! &= ~(1 << (r & 31));
      this.hasNull[c] = 1;
    }
  }

  /** Copies the first `count` rows into a new data chunk and appends it. */
  appendTo(appender: DuckDBAppender, count: number): void {
    const dataChunk = DuckDBDataChunk.create(TYPES, count);
    const chunk = dataChunk.chunk;
    copy(duckdb.data_chunk_get_vector(chunk, 0), this.series, count * 4);
    copy(duckdb.data_chunk_get_vector(chunk, 1), this.micros, count * 8);
    const maskBytes = Math.ceil(count / 64) * 8;
    for (let c = 0; c < FLOAT_COLUMNS; c++) {
      const vector = duckdb.data_chunk_get_vector(chunk, 2 + c);
      copy(vector, this.floats[c]!, count * 4);
      if (this.hasNull[c]) {
        const mask = this.validity[c]!;
        duckdb.vector_ensure_validity_writable(vector);
        duckdb.copy_data_to_vector_validity(vector, 0, mask.buffer, mask.byteOffset, maskBytes);
      }
    }
    appender.appendDataChunk(dataChunk);
  }
}

function copy(vector: duckdb.Vector, data: ArrayBufferView, bytes: number): void {
  duckdb.copy_data_to_vector(vector, 0, data.buffer as ArrayBuffer, data.byteOffset, bytes);
}

let columns: ChunkColumns | null = null;

/** Appends `rows[k]` with series `ids[k]` for every k in `indexes`. */
export function appendRows(
  appender: DuckDBAppender,
  ids: ArrayLike<number>,
  rows: readonly MeasurementRow[],
  indexes: ArrayLike<number>,
): void {
  const cols = columns ??= new ChunkColumns();
  for (let start = 0; start < indexes.length; start += CHUNK_ROWS) {
    const count = Math.min(CHUNK_ROWS, indexes.length - start);
    cols.reset();
    for (let r = 0; r < count; r++) {
      const k = indexes[start + r]!;
      const row = rows[k]!;
      cols.series[r] = ids[k]!;
      cols.setTimestamp(r, row.ts);
      cols.setFloat(0, r, row.u);
      cols.setFloat(1, r, row.i);
      const values = row.values;
      for (let f = 0; f < OPTIONAL_NAMES.length; f++) {
        cols.setFloat(2 + f, r, values[OPTIONAL_NAMES[f]!]);
      }
      const h = row.h;
      for (let k2 = 0; k2 < HARMONIC_ORDERS.length; k2++) {
        cols.setFloat(HARMONIC_BASE + k2, r, h ? h[k2]! : NaN);
      }
    }
    cols.appendTo(appender, count);
  }
}
