/**
 * EN 50160 of a whole grid over one period (a week): the feeders' 10-minute aggregates
 * (`agg_10min`) and PQ records (`pq_10min`) read column by column, streamed chunk by chunk
 * (DuckDB's chunk API, typed arrays over DuckDB's own vectors: no materialised result, no row
 * objects; the next chunk is fetched while the current one is routed), one scan per table and
 * batch, each batch a range of series ids (a plain range filter: no IN list of thousands of ids,
 * which DuckDB answers far slower), 250 feeders by default (80 MB of arrays; one pass over
 * 2,000 feeders holds 650 MB and was not reliably faster on the shared machine,
 * docs/benchmarks.md). Rows are routed to their feeder through a dense lookup table into flat
 * typed arrays (one per quantity and batch, each feeder's phases views into them), each feeder
 * evaluated by the engine as soon as its batch is read. Same values as `loadComplianceInputs` (core/quality/load.ts).
 */
import duckdb from "@duckdb/node-bindings";
import type { DuckDBConnection, DuckDBDataChunk } from "@duckdb/node-api";
import {
  type ComplianceInput,
  type ComplianceResult,
  EN50160_LV,
  evaluateCompliance,
  type LimitSet,
} from "../en50160/mod.ts";
import { HARMONIC_ORDERS } from "../ingest/schema.ts";
import { SLOT_MS } from "../ingest/store.ts";
import type { NodeSeries } from "./load.ts";

const SLOTS_PER_PLT = 12;
const PHASES = 3;
const ORDERS = HARMONIC_ORDERS.length;

/** What a grid evaluation gives: one result per feeder (input order) and where time went. */
export interface GridEvaluation {
  results: ComplianceResult[];
  loadMs: number;
  evaluateMs: number;
  batches: number;
}

export interface GridOptions {
  /**
   * Feeders read per scan (default 250; a week holds about 0.33 MB of arrays per feeder, 80 MB
   * for 250, reused from batch to batch).
   */
  batchSize?: number;
  signal?: AbortSignal;
}

/**
 * A batch's arrays, flat: quantity per phase `[(feeder * 3 + phase) * slots + slot]`, per feeder
 * `[feeder * slots + slot]`, harmonics `[((feeder * ORDERS + order) * 3 + phase) * slots + slot]`.
 */
interface Pool {
  size: number;
  slots: number;
  blocks: number;
  u: Float32Array;
  thd: Float32Array;
  fMin: Float32Array;
  fMax: Float32Array;
  unbalance: Float32Array;
  flagged: Uint8Array;
  h: Float32Array;
  plt: Float32Array;
  inputs: ComplianceInput[];
}

function newPool(size: number, slots: number): Pool {
  const blocks = Math.ceil(slots / SLOTS_PER_PLT);
  const pool = {
    size,
    slots,
    blocks,
    u: new Float32Array(size * PHASES * slots),
    thd: new Float32Array(size * PHASES * slots),
    fMin: new Float32Array(size * slots),
    fMax: new Float32Array(size * slots),
    unbalance: new Float32Array(size * slots),
    flagged: new Uint8Array(size * slots),
    h: new Float32Array(size * ORDERS * PHASES * slots),
    plt: new Float32Array(size * PHASES * blocks),
    inputs: [] as ComplianceInput[],
  };
  const view = (a: Float32Array, at: number, n: number) => a.subarray(at * n, (at + 1) * n);
  for (let f = 0; f < size; f++) {
    const phases = (a: Float32Array, n: number) =>
      Array.from({ length: PHASES }, (_, p) => view(a, f * PHASES + p, n));
    pool.inputs.push({
      period: { from: new Date(0), to: new Date(0) },
      nominalVoltage: 230,
      nominalFrequency: 50,
      u: phases(pool.u, slots),
      fMin: view(pool.fMin, f, slots),
      fMax: view(pool.fMax, f, slots),
      plt: phases(pool.plt, blocks),
      unbalance: view(pool.unbalance, f, slots),
      thd: phases(pool.thd, slots),
      h: Array.from(
        { length: ORDERS },
        (_, k) =>
          Array.from(
            { length: PHASES },
            (_, p) => view(pool.h, (f * ORDERS + k) * PHASES + p, slots),
          ),
      ),
      flagged: pool.flagged.subarray(f * slots, (f + 1) * slots),
    });
  }
  return pool;
}

/** Empties the pool's arrays (every value missing). */
function clear(pool: Pool): void {
  for (const a of [pool.u, pool.thd, pool.fMin, pool.fMax, pool.unbalance, pool.h, pool.plt]) {
    a.fill(NaN);
  }
  pool.flagged.fill(0);
}

/** Pooled input `k` set up for `feeder` over `[from, to)`. */
function inputFor(pool: Pool, k: number, feeder: NodeSeries, from: Date, to: Date) {
  const input = pool.inputs[k]!;
  const mutable = input as { -readonly [K in keyof ComplianceInput]: ComplianceInput[K] };
  mutable.period = { from, to };
  mutable.nominalVoltage = feeder.nominalVoltage;
  mutable.nominalFrequency = feeder.nominalFrequency;
  return input;
}

/** A batch's routing: series id - lo -> feeder index in the batch * 4 + phase (-1: not read). */
function lookupOf(batch: readonly NodeSeries[]): { lo: number; hi: number; owner: Int32Array } {
  let lo = Number.MAX_SAFE_INTEGER;
  let hi = -1;
  for (const f of batch) {
    for (const id of f.phases) {
      if (id === undefined) continue;
      if (id < lo) lo = id;
      if (id > hi) hi = id;
    }
  }
  const owner = new Int32Array(hi - lo + 1).fill(-1);
  batch.forEach((f, k) =>
    f.phases.forEach((id, phase) => {
      if (id !== undefined && owner[id - lo] === -1) owner[id - lo] = k * 4 + phase;
    })
  );
  return { lo, hi, owner };
}

/**
 * Evaluates every feeder of `feeders` over `[from, to)` against `limits`: batches of feeders
 * ordered by series id, two streamed scans per batch. A feeder without any series gets an empty
 * input (every interval missing, not evaluable).
 */
export async function evaluateGridWeek(
  connection: DuckDBConnection,
  feeders: readonly NodeSeries[],
  from: Date,
  to: Date,
  limits: LimitSet = EN50160_LV,
  options: GridOptions = {},
): Promise<GridEvaluation> {
  const slots = Math.round((to.getTime() - from.getTime()) / SLOT_MS);
  const batchSize = Math.max(1, options.batchSize ?? 250);
  const minId = (f: NodeSeries) => Math.min(...f.phases.map((id) => id ?? Number.MAX_SAFE_INTEGER));
  const order = feeders.map((f, k) => [minId(f), k] as const).sort((a, b) => a[0] - b[0])
    .map(([, k]) => k);
  const pool = newPool(Math.min(batchSize, feeders.length), slots);
  const results: ComplianceResult[] = new Array(feeders.length);
  let loadMs = 0;
  let evaluateMs = 0;
  let batches = 0;
  const period = `slot >= make_timestamp(${from.getTime() * 1000})
    AND slot < make_timestamp(${to.getTime() * 1000})`;
  const index = `((epoch_ms(slot) - ${from.getTime()}) // ${SLOT_MS})::INTEGER`;
  for (let start = 0; start < order.length; start += batchSize) {
    options.signal?.throwIfAborted();
    const t0 = performance.now();
    const members = order.slice(start, start + batchSize);
    const batch = members.map((k) => feeders[k]!);
    clear(pool);
    const inputs = batch.map((f, k) => inputFor(pool, k, f, from, to));
    if (batch.some((f) => f.phases.some((id) => id !== undefined))) {
      const { lo, hi, owner } = lookupOf(batch);
      const where = `WHERE ${period} AND series_id BETWEEN ${lo} AND ${hi}`;
      const router = { lo, owner, slots };
      await streamChunks(
        connection,
        `SELECT series_id, ${index}, u_rms, thd_u, f_min, f_max, flagged FROM agg_10min ${where}`,
        (chunk) => readAggregates(chunk, router, pool),
        options.signal,
      );
      await streamChunks(
        connection,
        `SELECT series_id, ${index}, plt, unbalance, ${
          HARMONIC_ORDERS.map((o) => `h${o}`).join(", ")
        } FROM pq_10min ${where}`,
        (chunk) => readRecords(chunk, router, pool),
        options.signal,
      );
    }
    const t1 = performance.now();
    inputs.forEach((input, k) => {
      results[members[k]!] = evaluateCompliance(input, limits);
    });
    loadMs += t1 - t0;
    evaluateMs += performance.now() - t1;
    batches++;
  }
  return { results, loadMs, evaluateMs, batches };
}

/** Runs `sql` as a streamed result: each chunk to `read` while the next one is fetched. */
async function streamChunks(
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

/** Column `index` of `chunk`: its values and its validity mask (null: no NULL in it). */
function column<T extends typeof Int32Array | typeof Float32Array | typeof Uint8Array>(
  chunk: DuckDBDataChunk,
  index: number,
  rows: number,
  Type: T,
): { values: InstanceType<T>; mask: Uint8Array | null } {
  const vector = duckdb.data_chunk_get_vector(chunk.chunk, index);
  const bytes = duckdb.vector_get_data(vector, rows * Type.BYTES_PER_ELEMENT);
  const values = new Type(bytes.buffer as ArrayBuffer, bytes.byteOffset, rows) as InstanceType<T>;
  const mask = duckdb.vector_get_validity(vector, Math.ceil(rows / 64) * 8);
  return { values, mask: mask?.length ? mask : null };
}

const isValid = (mask: Uint8Array | null, row: number) =>
  mask === null || ((mask[row >>> 3]! >> (row & 7)) & 1) === 1;

interface Router {
  lo: number;
  owner: Int32Array;
  slots: number;
}

/**
 * Where each row of a chunk of `series_id, slot index, ...` goes: its feeder in the batch and
 * phase (`f * 4 + phase`, -1: not ours or outside the period), its slot index, and its offset
 * in the per-phase arrays (`(f * 3 + phase) * slots + slot`, -1 when not ours).
 */
function route(chunk: DuckDBDataChunk, { lo, owner, slots }: Router) {
  const rows = chunk.rowCount;
  const ids = column(chunk, 0, rows, Int32Array).values;
  const at = column(chunk, 1, rows, Int32Array).values;
  const to = new Int32Array(rows);
  const offset = new Int32Array(rows);
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
function copyColumn(
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

function readAggregates(chunk: DuckDBDataChunk, router: Router, pool: Pool): void {
  const { rows, at, to, offset } = route(chunk, router);
  const { slots } = pool;
  copyColumn(column(chunk, 2, rows, Float32Array), rows, offset, pool.u, 0);
  copyColumn(column(chunk, 3, rows, Float32Array), rows, offset, pool.thd, 0);
  const fMin = column(chunk, 4, rows, Float32Array);
  const fMax = column(chunk, 5, rows, Float32Array);
  const flags = column(chunk, 6, rows, Uint8Array).values;
  const { fMin: lowF, fMax: highF, flagged } = pool;
  for (let r = 0; r < rows; r++) {
    const o = to[r]!;
    if (o < 0) continue;
    const j = (o >> 2) * slots + at[r]!;
    // Frequency is per feeder: the extremes over its phases.
    if (isValid(fMin.mask, r) && !(lowF[j]! <= fMin.values[r]!)) lowF[j] = fMin.values[r]!;
    if (isValid(fMax.mask, r) && !(highF[j]! >= fMax.values[r]!)) highF[j] = fMax.values[r]!;
    if (flags[r]) flagged[j] = 1;
  }
}

function readRecords(chunk: DuckDBDataChunk, router: Router, pool: Pool): void {
  const { rows, at, to, offset } = route(chunk, router);
  const { slots, blocks, h, plt: plts, unbalance: ub } = pool;
  // Harmonics of feeder f, order k, phase p: `((f * ORDERS + k) * 3 + p) * slots`, i.e. the
  // per-phase offset plus f * (ORDERS - 1) * 3 * slots plus k * 3 * slots.
  const hOffset = new Int32Array(rows);
  for (let r = 0; r < rows; r++) {
    const o = to[r]!;
    hOffset[r] = o < 0 ? -1 : offset[r]! + (o >> 2) * (ORDERS - 1) * PHASES * slots;
  }
  for (let k = 0; k < ORDERS; k++) {
    copyColumn(column(chunk, 4 + k, rows, Float32Array), rows, hOffset, h, k * PHASES * slots);
  }
  const plt = column(chunk, 2, rows, Float32Array);
  const unbalance = column(chunk, 3, rows, Float32Array);
  for (let r = 0; r < rows; r++) {
    const o = to[r]!;
    if (o < 0) continue;
    const i = at[r]!;
    // A device's Plt covers 2 hours: the highest value reported within the block.
    const b = ((o >> 2) * PHASES + (o & 3)) * blocks + Math.floor(i / SLOTS_PER_PLT);
    if (isValid(plt.mask, r) && !(plts[b]! >= plt.values[r]!)) plts[b] = plt.values[r]!;
    // Unbalance is per feeder: the first value of the slot.
    const j = (o >> 2) * slots + i;
    if (Number.isNaN(ub[j]!) && isValid(unbalance.mask, r)) ub[j] = unbalance.values[r]!;
  }
}
