/**
 * Reads nodes' 10-minute aggregates (voltage, THD, frequency, flags: `agg_10min`) and 10-minute
 * PQ records (Plt, unbalance, harmonics: `pq_10min`) from DuckDB into the typed arrays the
 * EN 50160 engine evaluates. Slots without a row stay NaN (missing), never filled in.
 */
import type { DuckDBConnection, DuckDBDataChunk, DuckDBMaterializedResult } from "@duckdb/node-api";
import { readVector } from "../vectors.ts";
import { type ComplianceInput, type ComplianceResult, evaluateCompliance } from "../en50160/mod.ts";
import type { Series } from "../en50160/_count.ts";
import { HARMONIC_ORDERS } from "../ingest/schema.ts";
import { SLOT_MS } from "../ingest/store.ts";

/**
 * Which series hold the node's phases L1..L3 (undefined: the phase never reported). Unbalance,
 * a quantity of the three-phase supply that a cell reports with each phase's record, is read
 * from the node's first series (`unbalancePhase`).
 */
export interface NodeSeries {
  phases: readonly (number | undefined)[];
  nominalVoltage: number;
  nominalFrequency: 50 | 60;
}

const SLOTS_PER_PLT = 12;

/** The phase whose records carry the node's unbalance: its first series (-1: none). */
export const unbalancePhase = (node: NodeSeries) => node.phases.findIndex((id) => id !== undefined);
/** FLOAT as stored: Float32Array holds every value exactly, at half the memory. */
const nanArray = (n: number) => new Float32Array(n).fill(NaN);

/** Builds the engine input of one node for `[from, to)` from `agg_10min` and `pq_10min`. */
export async function loadComplianceInput(
  connection: DuckDBConnection,
  node: NodeSeries,
  from: Date,
  to: Date,
): Promise<ComplianceInput> {
  return (await loadComplianceInputs(connection, [node], from, to))[0]!;
}

/** One node's arrays while they are filled. */
function emptyInput(node: NodeSeries, from: Date, to: Date, slots: number): ComplianceInput {
  const phases = node.phases.length;
  return {
    period: { from, to },
    nominalVoltage: node.nominalVoltage,
    nominalFrequency: node.nominalFrequency,
    u: Array.from({ length: phases }, () => nanArray(slots)),
    fMin: nanArray(slots),
    fMax: nanArray(slots),
    plt: Array.from({ length: phases }, () => nanArray(Math.ceil(slots / SLOTS_PER_PLT))),
    unbalance: nanArray(slots),
    thd: Array.from({ length: phases }, () => nanArray(slots)),
    h: HARMONIC_ORDERS.map(() => Array.from({ length: phases }, () => nanArray(slots))),
    flagged: new Uint8Array(slots),
  };
}

const HARMONIC_COLUMNS = HARMONIC_ORDERS.map((o) => `h${o}`).join(", ");
/** Columns read after series_id and the slot: agg_10min's FLOAT values, then the flag. */
const U = 0, THD = 1, F_MIN = 2, F_MAX = 3, FLAGGED = 4;
/** Columns read after series_id and the slot from pq_10min. */
const PLT = 0, UNBALANCE = 1, H = 2;

/**
 * Builds the engine inputs of several nodes for `[from, to)` with one query, read column by
 * column from DuckDB's vectors (no per-value JavaScript objects).
 */
export async function loadComplianceInputs(
  connection: DuckDBConnection,
  nodes: readonly NodeSeries[],
  from: Date,
  to: Date,
): Promise<ComplianceInput[]> {
  const slots = Math.round((to.getTime() - from.getTime()) / SLOT_MS);
  const inputs = nodes.map((node) => emptyInput(node, from, to, slots));
  // Every series read, by a dense index: its node's input and its phase.
  const index = new Map<number, number>();
  const owners: [input: ComplianceInput, phase: number, unbalance: boolean][] = [];
  nodes.forEach((node, k) =>
    node.phases.forEach((id, phase) => {
      if (id === undefined || index.has(id)) return;
      index.set(id, owners.length);
      owners.push([inputs[k]!, phase, phase === unbalancePhase(node)]);
    })
  );
  if (!owners.length) return inputs;
  const where = `WHERE series_id IN (${[...index.keys()].join(",")})
       AND slot >= make_timestamp(${from.getTime() * 1000})
       AND slot < make_timestamp(${to.getTime() * 1000})`;
  // Destination arrays per series for the per-phase columns (u, THD, harmonics).
  const perPhase = (pick: (input: ComplianceInput) => readonly Series[]) =>
    owners.map(([input, phase]) => pick(input)[phase]!);
  const grid = { start: from.getTime(), slots, index };
  const aggregates = await connection.run(
    `SELECT series_id, epoch_ms(slot)::DOUBLE, u_rms, thd_u, f_min, f_max, flagged
     FROM agg_10min ${where}`,
  );
  readChunks(aggregates, grid, [
    [2 + U, perPhase((input) => input.u)],
    [2 + THD, perPhase((input) => input.thd)],
  ], (chunk, rows, owner, slotOf) => {
    const fMin = readVector(chunk, 2 + F_MIN, rows, Float32Array);
    const fMax = readVector(chunk, 2 + F_MAX, rows, Float32Array);
    const flags = readVector(chunk, 2 + FLAGGED, rows, Uint8Array).values;
    for (let r = 0; r < rows; r++) {
      const o = owner[r]!;
      if (o < 0) continue;
      const [input] = owners[o]!;
      const slot = slotOf[r]!;
      // Frequency is per node: the extremes over its phases.
      if (fMin.valid(r) && !(input.fMin[slot]! <= fMin.values[r]!)) {
        input.fMin[slot] = fMin.values[r]!;
      }
      if (fMax.valid(r) && !(input.fMax[slot]! >= fMax.values[r]!)) {
        input.fMax[slot] = fMax.values[r]!;
      }
      if (flags[r]) input.flagged[slot] = 1;
    }
  });
  const records = await connection.run(
    `SELECT series_id, epoch_ms(slot)::DOUBLE, plt, unbalance, ${HARMONIC_COLUMNS}
     FROM pq_10min ${where}`,
  );
  readChunks(
    records,
    grid,
    HARMONIC_ORDERS.map((
      _,
      k,
    ): [number, Series[]] => [2 + H + k, perPhase((input) => input.h[k]!)]),
    (chunk, rows, owner, slotOf) => {
      const plt = readVector(chunk, 2 + PLT, rows, Float32Array);
      const unbalance = readVector(chunk, 2 + UNBALANCE, rows, Float32Array);
      for (let r = 0; r < rows; r++) {
        const o = owner[r]!;
        if (o < 0) continue;
        const [input, phase, carriesUnbalance] = owners[o]!;
        const slot = slotOf[r]!;
        // A device's Plt covers 2 hours: keep the highest value reported within the block.
        const block = Math.floor(slot / SLOTS_PER_PLT);
        if (plt.valid(r) && !(input.plt[phase]![block]! >= plt.values[r]!)) {
          input.plt[phase]![block] = plt.values[r]!;
        }
        if (carriesUnbalance && unbalance.valid(r)) input.unbalance[slot] = unbalance.values[r]!;
      }
    },
  );
  return inputs;
}

/** The slots of a load and which series (dense index) each id is. */
interface Grid {
  start: number;
  slots: number;
  index: ReadonlyMap<number, number>;
}

/**
 * Reads a result of `series_id, slot ms, ...` chunk by chunk: the per-phase `columns` straight
 * into their series' arrays, then `rest` for the columns that need more than a copy.
 */
function readChunks(
  result: DuckDBMaterializedResult,
  grid: Grid,
  columns: readonly [at: number, targets: Series[]][],
  rest: (chunk: DuckDBDataChunk, rows: number, owner: Int32Array, slotOf: Int32Array) => void,
): void {
  for (let c = 0; c < result.chunkCount; c++) {
    const chunk = result.getChunk(c);
    const rows = chunk.rowCount;
    const ids = readVector(chunk, 0, rows, Int32Array).values;
    const times = readVector(chunk, 1, rows, Float64Array).values;
    // Where each row goes (-1: not ours or outside the period), computed once per row.
    const owner = new Int32Array(rows).fill(-1);
    const slotOf = new Int32Array(rows);
    for (let r = 0; r < rows; r++) {
      const slot = Math.round((times[r]! - grid.start) / SLOT_MS);
      if (slot < 0 || slot >= grid.slots) continue;
      owner[r] = grid.index.get(ids[r]!) ?? -1;
      slotOf[r] = slot;
    }
    for (const [at, targets] of columns) {
      const { values, valid } = readVector(chunk, at, rows, Float32Array);
      for (let r = 0; r < rows; r++) {
        const o = owner[r]!;
        if (o >= 0) targets[o]![slotOf[r]!] = valid(r) ? values[r]! : NaN;
      }
    }
    rest(chunk, rows, owner, slotOf);
  }
}

/** EN 50160 result of one node for `[from, to)` (an ISO week or a custom report period). */
export async function nodeCompliance(
  connection: DuckDBConnection,
  node: NodeSeries,
  from: Date,
  to: Date,
): Promise<ComplianceResult> {
  return evaluateCompliance(await loadComplianceInput(connection, node, from, to));
}
