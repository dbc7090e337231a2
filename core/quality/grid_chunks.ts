/**
 * Reading DuckDB results chunk by chunk for the grid-wide week (grid.ts, grid_counts.ts): a
 * streamed query, a chunk's columns as typed arrays over DuckDB's own vectors, and the routing
 * of each row to its feeder, phase and slot in a batch's flat arrays.
 */
import duckdb from "@duckdb/node-bindings";
import type { DuckDBConnection, DuckDBDataChunk } from "@duckdb/node-api";

export const PHASES = 3;

/**
 * Runs each of `sqls` as a materialized result, the next one running while the chunks of the
 * current one go to `read`: DuckDB's threads fill a result in one go, where a streamed result
 * costs a round trip per 2,048-row chunk (three times the scan itself). For results of tens of
 * MB at most: split a larger one (`idRanges`).
 */
export async function readResults(
  connection: DuckDBConnection,
  sqls: readonly string[],
  read: (chunk: DuckDBDataChunk) => void,
  signal?: AbortSignal,
): Promise<void> {
  let next = sqls.length ? connection.run(sqls[0]!) : null;
  try {
    for (let k = 0; next; k++) {
      const result = await next;
      next = k + 1 < sqls.length ? connection.run(sqls[k + 1]!) : null;
      signal?.throwIfAborted();
      for (let c = 0; c < result.chunkCount; c++) read(result.getChunk(c));
    }
  } finally {
    // A query still running when a read failed: its result or error is of no use.
    next?.catch(() => undefined);
  }
}

/** `[lo, hi]` cut into `parts` ranges (fewer when it holds fewer ids), in order. */
export function idRanges(lo: number, hi: number, parts: number): [number, number][] {
  const step = Math.ceil((hi - lo + 1) / Math.max(1, parts));
  const ranges: [number, number][] = [];
  for (let a = lo; a <= hi; a += step) ranges.push([a, Math.min(hi, a + step - 1)]);
  return ranges;
}

/** Runs `sql` as a streamed result: each chunk to `read` while the next one is fetched. */
export async function streamChunks(
  connection: DuckDBConnection,
  sql: string,
  read: (chunk: DuckDBDataChunk) => void,
  signal?: AbortSignal,
): Promise<void> {
  const result = await connection.stream(sql);
  let next = result.fetchChunk();
  for (;;) {
    const chunk = await next;
    if (!chunk || chunk.rowCount === 0) return;
    signal?.throwIfAborted();
    next = result.fetchChunk();
    read(chunk);
  }
}

/**
 * Column `index` of `chunk`: its values and its validity mask (null: no NULL in it; not asked
 * for a column that cannot hold NULL, `nullable` false: each native buffer costs a call).
 */
export function column<
  T extends typeof Int32Array | typeof Float32Array | typeof Uint16Array | typeof Uint8Array,
>(
  chunk: DuckDBDataChunk,
  index: number,
  rows: number,
  Type: T,
  nullable = true,
): { values: InstanceType<T>; mask: Uint8Array | null } {
  const vector = duckdb.data_chunk_get_vector(chunk.chunk, index);
  const bytes = duckdb.vector_get_data(vector, rows * Type.BYTES_PER_ELEMENT);
  const values = new Type(bytes.buffer as ArrayBuffer, bytes.byteOffset, rows) as InstanceType<T>;
  const mask = nullable ? duckdb.vector_get_validity(vector, Math.ceil(rows / 64) * 8) : null;
  return { values, mask: mask?.length ? mask : null };
}

export const isValid = (mask: Uint8Array | null, row: number) =>
  mask === null || ((mask[row >>> 3]! >> (row & 7)) & 1) === 1;

export interface Router {
  lo: number;
  owner: Int32Array;
  slots: number;
}

/** The routing's arrays, reused chunk after chunk (a chunk is routed and read in one go). */
let scratch = { to: new Int32Array(2048), offset: new Int32Array(2048) };

/**
 * Where each row of a chunk of `series_id, slot index, ...` (neither NULL) goes: its feeder in
 * the batch and phase (`f * 4 + phase`, -1: not ours or outside the period), its slot index,
 * and its offset in the per-phase arrays (`(f * 3 + phase) * slots + slot`, -1 when not ours).
 * The arrays are valid until the next call.
 */
export function route(chunk: DuckDBDataChunk, { lo, owner, slots }: Router) {
  const rows = chunk.rowCount;
  const ids = column(chunk, 0, rows, Int32Array, false).values;
  const at = column(chunk, 1, rows, Int32Array, false).values;
  if (scratch.to.length < rows) {
    scratch = { to: new Int32Array(rows), offset: new Int32Array(rows) };
  }
  const { to, offset } = scratch;
  for (let r = 0; r < rows; r++) {
    const i = at[r]!;
    const o = owner[ids[r]! - lo];
    const ours = o !== undefined && o >= 0 && i >= 0 && i < slots;
    to[r] = ours ? o : -1;
    offset[r] = ours ? ((o >> 2) * PHASES + (o & 3)) * slots + i : -1;
  }
  return { rows, at, to, offset };
}

/** Copies a column into `target[offset[r] + shift]` for each routed row with a value. */
export function copyColumn(
  { values, mask }: { values: Float32Array; mask: Uint8Array | null },
  rows: number,
  offset: Int32Array,
  target: Float32Array,
  shift: number,
): void {
  if (mask === null) {
    for (let r = 0; r < rows; r++) {
      const d = offset[r]!;
      if (d >= 0) target[d + shift] = values[r]!;
    }
    return;
  }
  for (let r = 0; r < rows; r++) {
    const d = offset[r]!;
    if (d >= 0 && ((mask[r >>> 3]! >> (r & 7)) & 1) === 1) target[d + shift] = values[r]!;
  }
}
