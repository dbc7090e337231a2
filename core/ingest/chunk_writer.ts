/**
 * Writes measurement rows to the DuckDB appender as whole data chunks: each column's vector is
 * filled in JavaScript memory and copied to native memory once per 2,048 rows, instead of one
 * native call per value (about 35 per row), which made row-by-row appends the bottleneck.
 */
import {
  type DuckDBAppender,
  DuckDBDataChunk,
  type DuckDBFloatVector,
  type DuckDBIntegerVector,
  DuckDBTimestampValue,
  type DuckDBTimestampVector,
  FLOAT,
  INTEGER,
  TIMESTAMP,
} from "@duckdb/node-api";
import { HARMONIC_ORDERS } from "./schema.ts";
import { type MeasurementRow, OPTIONAL_FIELDS, type OptionalField } from "./validate.ts";

const OPTIONAL_NAMES = Object.keys(OPTIONAL_FIELDS) as OptionalField[];
const FLOAT_COLUMNS = 2 + OPTIONAL_NAMES.length + HARMONIC_ORDERS.length;
/** Column types of raw_measurements, in table order. */
const TYPES = [INTEGER, TIMESTAMP, ...Array.from({ length: FLOAT_COLUMNS }, () => FLOAT)];
const CHUNK_ROWS = 2048;

/** Appends `rows[k]` with series `ids[k]` for every k in `indexes`. */
export function appendRows(
  appender: DuckDBAppender,
  ids: readonly number[],
  rows: readonly MeasurementRow[],
  indexes: readonly number[],
): void {
  for (let start = 0; start < indexes.length; start += CHUNK_ROWS) {
    const count = Math.min(CHUNK_ROWS, indexes.length - start);
    const chunk = DuckDBDataChunk.create(TYPES, count);
    const series = chunk.getColumnVector(0) as DuckDBIntegerVector;
    const ts = chunk.getColumnVector(1) as DuckDBTimestampVector;
    const floats = Array.from(
      { length: FLOAT_COLUMNS },
      (_, c) => chunk.getColumnVector(2 + c) as DuckDBFloatVector,
    );
    for (let r = 0; r < count; r++) {
      const k = indexes[start + r]!;
      const row = rows[k]!;
      series.setItem(r, ids[k]!);
      ts.setItem(r, new DuckDBTimestampValue(BigInt(row.ts) * 1000n));
      setFloat(floats[0]!, r, row.u);
      setFloat(floats[1]!, r, row.i);
      for (let f = 0; f < OPTIONAL_NAMES.length; f++) {
        setFloat(floats[2 + f]!, r, row.values[OPTIONAL_NAMES[f]!]);
      }
      const base = 2 + OPTIONAL_NAMES.length;
      for (let h = 0; h < HARMONIC_ORDERS.length; h++) {
        setFloat(floats[base + h]!, r, row.h ? row.h[h]! : NaN);
      }
    }
    series.flush();
    ts.flush();
    for (const vector of floats) vector.flush();
    appender.appendDataChunk(chunk);
  }
}

function setFloat(vector: DuckDBFloatVector, index: number, value: number): void {
  vector.setItem(index, Number.isNaN(value) ? null : value);
}
