/**
 * The grid compliance load as it was before it was streamed (kept for the pq-grid benchmark's
 * same-run baseline only): `connection.run` materialises each batch's result, rows are read
 * chunk by chunk from it into per-feeder arrays.
 *
 * EN 50160 of a whole grid over one period (a week): the feeders' 10-minute aggregates
 * (`agg_10min`) and PQ records (`pq_10min`) read column by column in one scan per table and
 * batch, each batch a range of series ids (a plain range filter: no IN list of thousands of ids,
 * which DuckDB answers far slower), rows routed to their feeder through a dense lookup table, into
 * a pool of engine inputs reused from batch to batch (memory stays that of one batch, not of the
 * grid: 2,000 feeders' harmonics alone would be 600 MB), each feeder evaluated by the engine as
 * soon as its batch is read. Same values as `loadComplianceInputs` (core/quality/load.ts).
 */
import type { DuckDBConnection, DuckDBMaterializedResult } from "@duckdb/node-api";
import { readVector } from "../../../core/vectors.ts";
import {
  type ComplianceInput,
  type ComplianceResult,
  EN50160_LV,
  evaluateCompliance,
  type LimitSet,
} from "../../../core/en50160/mod.ts";
import { HARMONIC_ORDERS } from "../../../core/ingest/schema.ts";
import { SLOT_MS } from "../../../core/ingest/store.ts";
import type { NodeSeries } from "../../../core/quality/load.ts";

const SLOTS_PER_PLT = 12;
const PHASES = 3;

/** What a grid evaluation gives: one result per feeder (input order) and where time went. */
interface GridEvaluation {
  results: ComplianceResult[];
  loadMs: number;
  evaluateMs: number;
  batches: number;
}

interface GridOptions {
  /** Feeders read per scan (default 250: about 80 MB of arrays for a week). */
  batchSize?: number;
  signal?: AbortSignal;
}

interface Slot {
  input: ComplianceInput;
  u: Float32Array[];
  thd: Float32Array[];
  h: Float32Array[][];
  plt: Float32Array[];
}

function newSlot(slots: number): Slot {
  const arr = (n: number) => new Float32Array(n);
  const u = Array.from({ length: PHASES }, () => arr(slots));
  const thd = Array.from({ length: PHASES }, () => arr(slots));
  const h = HARMONIC_ORDERS.map(() => Array.from({ length: PHASES }, () => arr(slots)));
  const plt = Array.from({ length: PHASES }, () => arr(Math.ceil(slots / SLOTS_PER_PLT)));
  const input = {
    period: { from: new Date(0), to: new Date(0) },
    nominalVoltage: 230,
    nominalFrequency: 50 as 50 | 60,
    u,
    fMin: arr(slots),
    fMax: arr(slots),
    plt,
    unbalance: arr(slots),
    thd,
    h,
    flagged: new Uint8Array(slots),
  };
  return { input, u, thd, h, plt };
}

/** Empties a pooled input for `feeder` over `[from, to)`. */
function reset(slot: Slot, feeder: NodeSeries, from: Date, to: Date): ComplianceInput {
  const { input } = slot;
  for (const a of [...slot.u, ...slot.thd, ...slot.plt, ...slot.h.flat()]) a.fill(NaN);
  (input.fMin as Float32Array).fill(NaN);
  (input.fMax as Float32Array).fill(NaN);
  (input.unbalance as Float32Array).fill(NaN);
  input.flagged.fill(0);
  const mutable = input as { -readonly [K in keyof ComplianceInput]: ComplianceInput[K] };
  mutable.period = { from, to };
  mutable.nominalVoltage = feeder.nominalVoltage;
  mutable.nominalFrequency = feeder.nominalFrequency;
  return input;
}

/** A batch's routing: series id - lo -> pool index * 4 + phase (-1: not read). */
function lookupOf(batch: readonly NodeSeries[]): { lo: number; hi: number; owner: Int32Array } {
  const ids = batch.flatMap((f) => f.phases.filter((id): id is number => id !== undefined));
  const lo = Math.min(...ids);
  const hi = Math.max(...ids);
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
 * ordered by series id, two scans per batch. A feeder without any series gets an empty input
 * (every interval missing, not evaluable).
 */
export async function evaluateGridWeekMaterialised(
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
  const pool = Array.from({ length: Math.min(batchSize, feeders.length) }, () => newSlot(slots));
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
    const inputs = batch.map((f, k) => reset(pool[k]!, f, from, to));
    const withSeries = batch.filter((f) => f.phases.some((id) => id !== undefined));
    if (withSeries.length) {
      const { lo, hi, owner } = lookupOf(batch);
      const where = `WHERE ${period} AND series_id BETWEEN ${lo} AND ${hi}`;
      readAggregates(
        await connection.run(
          `SELECT series_id, ${index}, u_rms, thd_u, f_min, f_max, flagged FROM agg_10min ${where}`,
        ),
        lo,
        owner,
        pool,
        slots,
      );
      readRecords(
        await connection.run(
          `SELECT series_id, ${index}, plt, unbalance, ${
            HARMONIC_ORDERS.map((o) => `h${o}`).join(", ")
          } FROM pq_10min ${where}`,
        ),
        lo,
        owner,
        pool,
        slots,
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

/** Rows of `series_id, slot index, ...`: where each row goes (-1: not ours or outside). */
function route(
  result: DuckDBMaterializedResult,
  c: number,
  lo: number,
  owner: Int32Array,
  slots: number,
) {
  const chunk = result.getChunk(c);
  const rows = chunk.rowCount;
  const ids = readVector(chunk, 0, rows, Int32Array).values;
  const at = readVector(chunk, 1, rows, Int32Array).values;
  const to = new Int32Array(rows);
  for (let r = 0; r < rows; r++) {
    const i = at[r]!;
    const o = owner[ids[r]! - lo];
    to[r] = o === undefined || i < 0 || i >= slots ? -1 : o;
  }
  return { chunk, rows, at, to };
}

function readAggregates(
  result: DuckDBMaterializedResult,
  lo: number,
  owner: Int32Array,
  pool: Slot[],
  slots: number,
): void {
  for (let c = 0; c < result.chunkCount; c++) {
    const { chunk, rows, at, to } = route(result, c, lo, owner, slots);
    const u = readVector(chunk, 2, rows, Float32Array);
    const thd = readVector(chunk, 3, rows, Float32Array);
    const fMin = readVector(chunk, 4, rows, Float32Array);
    const fMax = readVector(chunk, 5, rows, Float32Array);
    const flags = readVector(chunk, 6, rows, Uint8Array).values;
    for (let r = 0; r < rows; r++) {
      const o = to[r]!;
      if (o < 0) continue;
      const slot = pool[o >> 2]!;
      const phase = o & 3;
      const i = at[r]!;
      if (u.valid(r)) slot.u[phase]![i] = u.values[r]!;
      if (thd.valid(r)) slot.thd[phase]![i] = thd.values[r]!;
      const input = slot.input;
      const lowF = input.fMin as Float32Array;
      const highF = input.fMax as Float32Array;
      // Frequency is per feeder: the extremes over its phases.
      if (fMin.valid(r) && !(lowF[i]! <= fMin.values[r]!)) lowF[i] = fMin.values[r]!;
      if (fMax.valid(r) && !(highF[i]! >= fMax.values[r]!)) highF[i] = fMax.values[r]!;
      if (flags[r]) input.flagged[i] = 1;
    }
  }
}

function readRecords(
  result: DuckDBMaterializedResult,
  lo: number,
  owner: Int32Array,
  pool: Slot[],
  slots: number,
): void {
  for (let c = 0; c < result.chunkCount; c++) {
    const { chunk, rows, at, to } = route(result, c, lo, owner, slots);
    const plt = readVector(chunk, 2, rows, Float32Array);
    const unbalance = readVector(chunk, 3, rows, Float32Array);
    for (let k = 0; k < HARMONIC_ORDERS.length; k++) {
      const { values, valid } = readVector(chunk, 4 + k, rows, Float32Array);
      for (let r = 0; r < rows; r++) {
        const o = to[r]!;
        if (o >= 0 && valid(r)) pool[o >> 2]!.h[k]![o & 3]![at[r]!] = values[r]!;
      }
    }
    for (let r = 0; r < rows; r++) {
      const o = to[r]!;
      if (o < 0) continue;
      const slot = pool[o >> 2]!;
      const i = at[r]!;
      // A device's Plt covers 2 hours: the highest value reported within the block.
      const block = Math.floor(i / SLOTS_PER_PLT);
      const plts = slot.plt[o & 3]!;
      if (plt.valid(r) && !(plts[block]! >= plt.values[r]!)) plts[block] = plt.values[r]!;
      // Unbalance is per feeder: the first value of the slot.
      const ub = slot.input.unbalance as Float32Array;
      if (Number.isNaN(ub[i]!) && unbalance.valid(r)) ub[i] = unbalance.values[r]!;
    }
  }
}
