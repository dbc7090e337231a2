/**
 * Columnar reads of DuckDB results: a column of a result chunk as a typed array over DuckDB's
 * own vector memory (no row objects, no copy) and its validity mask.
 */
import duckdb from "@duckdb/node-bindings";
import type { DuckDBDataChunk } from "@duckdb/node-api";

type TypedArrayType =
  | typeof Int32Array
  | typeof Float64Array
  | typeof Float32Array
  | typeof Uint8Array;

/**
 * Column `index` of `chunk` as a `Type` array of `rows` values (the column's DuckDB type must
 * have that width: INTEGER Int32Array, DOUBLE or epoch_ms Float64Array, FLOAT Float32Array,
 * BOOLEAN Uint8Array) and whether a row holds a value (false: NULL). Valid until the chunk goes.
 */
export function readVector<T extends TypedArrayType>(
  chunk: DuckDBDataChunk,
  index: number,
  rows: number,
  Type: T,
): { values: InstanceType<T>; valid(row: number): boolean } {
  const vector = duckdb.data_chunk_get_vector(chunk.chunk, index);
  const bytes = duckdb.vector_get_data(vector, rows * Type.BYTES_PER_ELEMENT);
  const values = new Type(bytes.buffer as ArrayBuffer, bytes.byteOffset, rows) as InstanceType<T>;
  const mask = duckdb.vector_get_validity(vector, Math.ceil(rows / 64) * 8);
  return {
    values,
    valid: mask?.length ? (row) => ((mask[row >>> 3]! >> (row & 7)) & 1) === 1 : () => true,
  };
}
