/**
 * EN 50160 of a whole grid over one period (a week): the feeders' 10-minute aggregates
 * (`agg_10min`) and PQ records (`pq_10min`) read column by column, streamed chunk by chunk
 * (DuckDB's chunk API, typed arrays over DuckDB's own vectors: no materialised result, no row
 * objects; the next chunk is fetched while the current one is routed), one scan per table and
 * batch, each batch a range of series ids (a plain range filter: no IN list of thousands of ids,
 * which DuckDB answers far slower). Rows are routed to their feeder through a dense lookup table
 * into flat typed arrays (one per quantity and batch, each feeder's phases views into them), each
 * feeder evaluated by the engine as soon as its batch is read.
 *
 * The PQ records (24 harmonics per record, most of what a week holds) are not read at all
 * wherever the PQ rollups' counts apply and stand for them (grid_counts.ts): the harmonics and
 * unbalance come from the counts kept as the slots close, Plt from the hourly rollup; then a
 * batch holds about 34 KB per feeder and the whole grid is one batch, one scan of `agg_10min`. A
 * feeder whose counts do not stand (a day rolled up before a late record or flag) is evaluated
 * again from its values, in batches of 250 feeders (0.33 MB each). Same results as
 * `loadComplianceInputs` (core/quality/load.ts) with `evaluateCompliance`.
 */
import type { DuckDBConnection, DuckDBDataChunk } from "@duckdb/node-api";
import {
  type ComplianceInput,
  type ComplianceResult,
  EN50160_LV,
  evaluateCompliance,
  type LimitSet,
} from "../en50160/mod.ts";
import { COUNTED_HARMONICS, COUNTED_UNBALANCE } from "../ingest/pq_rollup.ts";
import { HARMONIC_ORDERS } from "../ingest/schema.ts";
import { SLOT_MS } from "../ingest/store.ts";
import { type NodeSeries, unbalancePhase } from "./load.ts";
import {
  column,
  copyColumn,
  idRanges,
  isValid,
  PHASES,
  readResults,
  route,
  type Router,
  streamChunks,
} from "./grid_chunks.ts";
import { countsTable, type CountTarget, readCounts } from "./grid_counts.ts";

const SLOTS_PER_PLT = 12;
const ORDERS = HARMONIC_ORDERS.length;

/** What a grid evaluation gives: one result per feeder (input order) and where time went. */
export interface GridEvaluation {
  results: ComplianceResult[];
  loadMs: number;
  evaluateMs: number;
  batches: number;
  /** Feeders whose PQ records came from the rollups (the others' from the values). */
  countedFeeders: number;
}

export interface GridOptions {
  /**
   * Feeders read per scan, the arrays reused from batch to batch. By default 2,000 when the
   * records are counted (a week holds about 34 KB per feeder, 68 MB for 2,000), else 250
   * (0.33 MB per feeder with the harmonic values, 80 MB for 250).
   */
  batchSize?: number;
  signal?: AbortSignal;
  /**
   * The PQ records from the rollups (default, when they apply: EN 50160's harmonic and
   * unbalance limits over whole days or hours, grid_counts.ts), or false: from the values.
   */
  counts?: boolean;
}

/**
 * A batch's arrays, flat: quantity per phase `[(feeder * 3 + phase) * slots + slot]`, per feeder
 * `[feeder * slots + slot]`; when the values are read, harmonics `h` `[((feeder * ORDERS +
 * order) * 3 + phase) * slots + slot]` and `unbalance` per feeder, else the counts (CountTarget).
 */
interface Pool extends CountTarget {
  size: number;
  u: Float32Array;
  thd: Float32Array;
  fMin: Float32Array;
  fMax: Float32Array;
  unbalance: Float32Array;
  h: Float32Array | null;
  inputs: ComplianceInput[];
}

const view = (a: Float32Array, at: number, n: number) => a.subarray(at * n, (at + 1) * n);

function newPool(size: number, slots: number, counted: boolean): Pool {
  const blocks = Math.ceil(slots / SLOTS_PER_PLT);
  const perFeeder = ORDERS * PHASES;
  const pool: Pool = {
    size,
    slots,
    blocks,
    u: new Float32Array(size * PHASES * slots),
    thd: new Float32Array(size * PHASES * slots),
    fMin: new Float32Array(size * slots),
    fMax: new Float32Array(size * slots),
    unbalance: new Float32Array(counted ? 0 : size * slots),
    flagged: new Uint8Array(size * slots),
    h: counted ? null : new Float32Array(size * perFeeder * slots),
    plt: new Float32Array(size * PHASES * blocks),
    valid: new Int32Array(counted ? size * perFeeder : 0),
    above: new Int32Array(counted ? size * perFeeder : 0),
    unbalanceCounts: new Int32Array(counted ? size * 2 : 0),
    seriesFlagged: new Set(),
    inputs: [],
  };
  for (let f = 0; f < size; f++) {
    const phases = (a: Float32Array, n: number) =>
      Array.from({ length: PHASES }, (_, p) => view(a, f * PHASES + p, n));
    const h = pool.h;
    pool.inputs.push({
      period: { from: new Date(0), to: new Date(0) },
      nominalVoltage: 230,
      nominalFrequency: 50,
      u: phases(pool.u, slots),
      fMin: view(pool.fMin, f, slots),
      fMax: view(pool.fMax, f, slots),
      plt: phases(pool.plt, blocks),
      unbalance: counted ? pool.unbalance : view(pool.unbalance, f, slots),
      thd: phases(pool.thd, slots),
      h: h
        ? Array.from(
          { length: ORDERS },
          (_, k) =>
            Array.from({ length: PHASES }, (_, p) => view(h, (f * ORDERS + k) * PHASES + p, slots)),
        )
        : [],
      recordCounts: counted
        ? {
          maxPct: COUNTED_HARMONICS,
          valid: pool.valid.subarray(f * perFeeder, (f + 1) * perFeeder),
          above: pool.above.subarray(f * perFeeder, (f + 1) * perFeeder),
          unbalanceMax: COUNTED_UNBALANCE,
          unbalance: pool.unbalanceCounts.subarray(f * 2, (f + 1) * 2),
        }
        : undefined,
      flagged: pool.flagged.subarray(f * slots, (f + 1) * slots),
    });
  }
  return pool;
}

/** Empties the pool's arrays (every value missing). */
function clear(pool: Pool): void {
  for (const a of [pool.u, pool.thd, pool.fMin, pool.fMax, pool.unbalance, pool.plt, pool.h]) {
    a?.fill(NaN);
  }
  for (const a of [pool.flagged, pool.valid, pool.above, pool.unbalanceCounts]) a.fill(0);
  pool.seriesFlagged.clear();
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
 * ordered by series id, per batch a streamed scan of the aggregates and either the rollups
 * (counted) or a streamed scan of the PQ records.
 * A feeder without any series gets an empty input (every interval missing, not evaluable).
 */
export async function evaluateGridWeek(
  connection: DuckDBConnection,
  feeders: readonly NodeSeries[],
  from: Date,
  to: Date,
  limits: LimitSet = EN50160_LV,
  options: GridOptions = {},
): Promise<GridEvaluation> {
  const table = options.counts === false ? null : countsTable(limits, from, to);
  const counted = table !== null;
  const slots = Math.round((to.getTime() - from.getTime()) / SLOT_MS);
  const batchSize = Math.max(1, options.batchSize ?? (counted ? 2_000 : 250));
  const minId = (f: NodeSeries) => Math.min(...f.phases.map((id) => id ?? Number.MAX_SAFE_INTEGER));
  const order = feeders.map((f, k) => [minId(f), k] as const).sort((a, b) => a[0] - b[0])
    .map(([, k]) => k);
  const pool = newPool(Math.min(batchSize, feeders.length), slots, counted);
  const results: ComplianceResult[] = new Array(feeders.length);
  const out = { results, loadMs: 0, evaluateMs: 0, batches: 0, countedFeeders: 0 };
  const period = `slot >= make_timestamp(${from.getTime() * 1000})
    AND slot < make_timestamp(${to.getTime() * 1000})`;
  const index = `((epoch_ms(slot) - ${from.getTime()}) // ${SLOT_MS})::INTEGER`;
  const { signal } = options;
  // Feeders (input indices) whose counts do not stand for their records.
  const recount: number[] = [];
  for (let start = 0; start < order.length; start += batchSize) {
    signal?.throwIfAborted();
    const t0 = performance.now();
    const members = order.slice(start, start + batchSize);
    const batch = members.map((k) => feeders[k]!);
    clear(pool);
    let stale = new Set<number>();
    if (batch.some((f) => f.phases.some((id) => id !== undefined))) {
      const { lo, hi, owner } = lookupOf(batch);
      const where = `WHERE ${period} AND series_id BETWEEN ${lo} AND ${hi}`;
      const router = { lo, owner, slots };
      const carriers = Int8Array.from(batch, unbalancePhase);
      // About 19 MB per 500 feeders' week.
      await readResults(
        connection,
        idRanges(lo, hi, Math.ceil(batch.length / 500)).map(([a, b]) =>
          `SELECT series_id, ${index}, u_rms, thd_u, f_min, f_max, flagged FROM agg_10min
           WHERE ${period} AND series_id BETWEEN ${a} AND ${b}`
        ),
        (chunk) => readAggregates(chunk, router, pool),
        signal,
      );
      if (table) {
        stale = await readCounts(connection, table, from, where, router, carriers, pool, signal);
      } else {
        const harmonics = HARMONIC_ORDERS.map((o) => `, h${o}`).join("");
        await streamChunks(
          connection,
          `SELECT series_id, ${index}, plt, unbalance${harmonics} FROM pq_10min ${where}`,
          (chunk) => readRecords(chunk, router, carriers, pool),
          signal,
        );
      }
    }
    const t1 = performance.now();
    batch.forEach((feeder, k) => {
      if (stale.has(k)) recount.push(members[k]!);
      else results[members[k]!] = evaluateCompliance(inputFor(pool, k, feeder, from, to), limits);
    });
    out.loadMs += t1 - t0;
    out.evaluateMs += performance.now() - t1;
    out.batches++;
    if (counted) out.countedFeeders += batch.length - stale.size;
  }
  if (recount.length) {
    const again = await evaluateGridWeek(
      connection,
      recount.map((k) => feeders[k]!),
      from,
      to,
      limits,
      { signal, counts: false },
    );
    recount.forEach((k, j) => results[k] = again.results[j]!);
    out.loadMs += again.loadMs;
    out.evaluateMs += again.evaluateMs;
    out.batches += again.batches;
  }
  return out;
}

function readAggregates(chunk: DuckDBDataChunk, router: Router, pool: Pool): void {
  const { rows, at, to, offset } = route(chunk, router);
  const { slots } = pool;
  copyColumn(column(chunk, 2, rows, Float32Array), rows, offset, pool.u, 0);
  copyColumn(column(chunk, 3, rows, Float32Array), rows, offset, pool.thd, 0);
  const fMin = column(chunk, 4, rows, Float32Array);
  const fMax = column(chunk, 5, rows, Float32Array);
  const flags = column(chunk, 6, rows, Uint8Array, false).values;
  const { fMin: lowF, fMax: highF, flagged, seriesFlagged } = pool;
  for (let r = 0; r < rows; r++) {
    const o = to[r]!;
    if (o < 0) continue;
    const j = (o >> 2) * slots + at[r]!;
    // Frequency is per feeder: the extremes over its phases.
    if (isValid(fMin.mask, r) && !(lowF[j]! <= fMin.values[r]!)) lowF[j] = fMin.values[r]!;
    if (isValid(fMax.mask, r) && !(highF[j]! >= fMax.values[r]!)) highF[j] = fMax.values[r]!;
    if (flags[r]) {
      flagged[j] = 1;
      seriesFlagged.add(((o >> 2) * PHASES + (o & 3)) * slots + at[r]!);
    }
  }
}

/**
 * Plt and unbalance of a chunk of records (columns 2, 3; unbalance from the phase `carriers`
 * gives per feeder), then its harmonics (from column 4).
 */
function readRecords(
  chunk: DuckDBDataChunk,
  router: Router,
  carriers: Int8Array,
  pool: Pool,
): void {
  const routed = route(chunk, router);
  const { rows, at, to } = routed;
  const { slots, blocks, plt: plts, unbalance: ub } = pool;
  readHarmonics(chunk, routed, pool, pool.h!, 4);
  const plt = column(chunk, 2, rows, Float32Array);
  const unbalance = column(chunk, 3, rows, Float32Array);
  for (let r = 0; r < rows; r++) {
    const o = to[r]!;
    if (o < 0) continue;
    const i = at[r]!;
    // A device's Plt covers 2 hours: the highest value reported within the block.
    const b = ((o >> 2) * PHASES + (o & 3)) * blocks + Math.floor(i / SLOTS_PER_PLT);
    if (isValid(plt.mask, r) && !(plts[b]! >= plt.values[r]!)) plts[b] = plt.values[r]!;
    if ((o & 3) === carriers[o >> 2] && isValid(unbalance.mask, r)) {
      ub[(o >> 2) * slots + i] = unbalance.values[r]!;
    }
  }
}

/** Copies the harmonics of a routed chunk (orders 2..25 from column `first`) into `h`. */
function readHarmonics(
  chunk: DuckDBDataChunk,
  { rows, to, offset }: ReturnType<typeof route>,
  { slots }: Pool,
  h: Float32Array,
  first: number,
): void {
  // Harmonics of feeder f, order k, phase p: `((f * ORDERS + k) * 3 + p) * slots`, i.e. the
  // per-phase offset plus f * (ORDERS - 1) * 3 * slots plus k * 3 * slots.
  const hOffset = new Int32Array(rows);
  for (let r = 0; r < rows; r++) {
    const o = to[r]!;
    hOffset[r] = o < 0 ? -1 : offset[r]! + (o >> 2) * (ORDERS - 1) * PHASES * slots;
  }
  for (let k = 0; k < ORDERS; k++) {
    copyColumn(column(chunk, first + k, rows, Float32Array), rows, hOffset, h, k * PHASES * slots);
  }
}
