/**
 * Writes measurement rows to the DuckDB appender as whole data chunks: each column is filled in
 * a typed array and copied to the chunk's native vector once per 2,048 rows, with a validity
 * mask written once per column (NaN = NULL). No per-value wrapper, BigInt or native call: the
 * node API's `setItem` costs BigInt arithmetic per value once a column holds a NULL.
 */
import duckdb from "@duckdb/node-bindings";
import {
  BOOLEAN,
  DOUBLE,
  type DuckDBAppender,
  DuckDBDataChunk,
  type DuckDBType,
  FLOAT,
  INTEGER,
  TIMESTAMP,
  UINTEGER,
  USMALLINT,
  UTINYINT,
} from "@duckdb/node-api";
import { RAW_FLOAT_COLUMNS } from "./schema.ts";
import { type MeasurementRow, OPTIONAL_FIELDS } from "./validate.ts";

const FLOAT_COLUMNS = RAW_FLOAT_COLUMNS.length;
/** Column types of raw_measurements, in table order. */
const TYPES = [INTEGER, TIMESTAMP, ...Array.from({ length: FLOAT_COLUMNS }, () => FLOAT)];
const CHUNK_ROWS = 2048;
// appendRows writes u, i and the optional fields by name, in this order.
if (["u", "i", ...Object.keys(OPTIONAL_FIELDS)].join() !== RAW_FLOAT_COLUMNS.join()) {
  throw new Error("Cannot write raw rows: OPTIONAL_FIELDS and raw_measurements differ");
}

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

  /** Copies the first `count` rows into the reused data chunk and appends it. */
  appendTo(appender: DuckDBAppender, count: number): void {
    const dataChunk = reusedChunk(TYPES, count);
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

/**
 * One data chunk per column-type list for the whole process, emptied before each use: the
 * appender copies a chunk's rows when it takes it, and a chunk that is never garbage spares the
 * runtime a Node-API finalizer per 2,048 rows (see releaseNativeHandles in time_series_store.ts).
 */
const chunks = new Map<string, DuckDBDataChunk>();

function reusedChunk(types: readonly DuckDBType[], rows: number): DuckDBDataChunk {
  const key = types.join();
  let chunk = chunks.get(key);
  if (!chunk) chunks.set(key, chunk = DuckDBDataChunk.create([...types]));
  else duckdb.data_chunk_reset(chunk.chunk);
  duckdb.data_chunk_set_size(chunk.chunk, rows);
  return chunk;
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
      const v = row.values; // explicit names: keyed access per value costs a lookup each
      cols.setFloat(2, r, v.p);
      cols.setFloat(3, r, v.q);
      cols.setFloat(4, r, v.pf);
      cols.setFloat(5, r, v.thd_u);
      cols.setFloat(6, r, v.thd_i);
      cols.setFloat(7, r, v.f);
    }
    cols.appendTo(appender, count);
  }
}

/** A whole column of a table written by `appendColumns`; FLOAT columns hold NaN for NULL. */
export type Column =
  | { type: "integer"; data: Int32Array }
  | { type: "uinteger"; data: Uint32Array }
  | { type: "utinyint"; data: Uint8Array }
  | { type: "usmallint"; data: Uint16Array }
  | { type: "boolean"; data: Uint8Array }
  | { type: "float"; data: Float32Array }
  /** DOUBLE; NaN is written as NaN, not NULL (running sums). */
  | { type: "double"; data: Float64Array }
  /** Epoch milliseconds, written as TIMESTAMP. */
  | { type: "timestamp"; data: Float64Array };

const COLUMN_TYPES: Record<Column["type"], DuckDBType> = {
  integer: INTEGER,
  uinteger: UINTEGER,
  utinyint: UTINYINT,
  usmallint: USMALLINT,
  double: DOUBLE,
  boolean: BOOLEAN,
  float: FLOAT,
  timestamp: TIMESTAMP,
};

/** Appends the first `count` rows of `columns` (in table order) in chunks of 2,048 rows. */
export function appendColumns(appender: DuckDBAppender, columns: Column[], count: number): void {
  const types = columns.map((c) => COLUMN_TYPES[c.type]);
  const micros = new Uint32Array(CHUNK_ROWS * 2);
  const mask = new Uint32Array(CHUNK_ROWS / 32);
  for (let start = 0; start < count; start += CHUNK_ROWS) {
    const rows = Math.min(CHUNK_ROWS, count - start);
    const dataChunk = reusedChunk(types, rows);
    columns.forEach((column, c) => {
      const vector = duckdb.data_chunk_get_vector(dataChunk.chunk, c);
      if (column.type === "timestamp") {
        for (let r = 0; r < rows; r++) {
          const us = column.data[start + r]! * 1000;
          const high = Math.floor(us / 4294967296);
          micros[2 * r] = us - high * 4294967296;
          micros[2 * r + 1] = high;
        }
        copy(vector, micros, rows * 8);
        return;
      }
      const data = column.data.subarray(start, start + rows);
      copy(vector, data, data.byteLength);
      if (column.type !== "float") return;
      let nulls = false;
      mask.fill(0xffffffff);
      for (let r = 0; r < rows; r++) {
        if (data[r] !== data[r]) {
          mask[r >>> 5]! &= ~(1 << (r & 31));
          nulls = true;
        }
      }
      if (nulls) {
        duckdb.vector_ensure_validity_writable(vector);
        duckdb.copy_data_to_vector_validity(vector, 0, mask.buffer, 0, Math.ceil(rows / 64) * 8);
      }
    });
    appender.appendDataChunk(dataChunk);
  }
}
