/**
 * Reads nodes' 10-minute aggregates from DuckDB into the typed arrays the EN 50160 engine
 * evaluates. Slots without a row stay NaN (missing), never filled in.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { readVector } from "../vectors.ts";
import { type ComplianceInput, type ComplianceResult, evaluateCompliance } from "../en50160/mod.ts";
import type { Series } from "../en50160/_count.ts";
import { HARMONIC_ORDERS } from "../ingest/schema.ts";
import { SLOT_MS } from "../ingest/store.ts";

/** Which series hold the node's phases L1..L3 (undefined: the phase never reported). */
export interface NodeSeries {
  phases: readonly (number | undefined)[];
  nominalVoltage: number;
  nominalFrequency: 50 | 60;
}

const SLOTS_PER_PLT = 12;
/** FLOAT as stored: Float32Array holds every value exactly, at half the memory. */
const nanArray = (n: number) => new Float32Array(n).fill(NaN);

/** Builds the engine input of one node for `[from, to)` from `agg_10min`. */
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
/** Columns read after series_id and the slot: FLOAT values, then the flag. */
const U = 0, THD = 1, PLT = 2, F_MIN = 3, F_MAX = 4, UNBALANCE = 5, H = 6;
const FLOATS = 6 + HARMONIC_ORDERS.length;

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
  const owners: [input: ComplianceInput, phase: number][] = [];
  nodes.forEach((node, k) =>
    node.phases.forEach((id, phase) => {
      if (id === undefined || index.has(id)) return;
      index.set(id, owners.length);
      owners.push([inputs[k]!, phase]);
    })
  );
  if (!owners.length) return inputs;
  const result = await connection.run(
    `SELECT series_id, epoch_ms(slot)::DOUBLE, u_rms, thd_u, plt, f_min, f_max, unbalance,
       ${HARMONIC_COLUMNS}, flagged
     FROM agg_10min WHERE series_id IN (${[...index.keys()].join(",")})
       AND slot >= make_timestamp(${from.getTime() * 1000})
       AND slot < make_timestamp(${to.getTime() * 1000})`,
  );
  // Destination arrays per series for the per-phase columns (u, THD, harmonics).
  const perPhase = (pick: (input: ComplianceInput) => readonly Series[]) =>
    owners.map(([input, phase]) => pick(input)[phase]!);
  const columns: [at: number, targets: Series[]][] = [
    [2 + U, perPhase((input) => input.u)],
    [2 + THD, perPhase((input) => input.thd)],
    ...HARMONIC_ORDERS.map((_, k): [number, Series[]] => [
      2 + H + k,
      perPhase((input) => input.h[k]!),
    ]),
  ];
  const start = from.getTime();
  for (let c = 0; c < result.chunkCount; c++) {
    const chunk = result.getChunk(c);
    const rows = chunk.rowCount;
    const ids = readVector(chunk, 0, rows, Int32Array).values;
    const times = readVector(chunk, 1, rows, Float64Array).values;
    // Where each row goes (-1: not ours or outside the period), computed once per row.
    const owner = new Int32Array(rows).fill(-1);
    const slotOf = new Int32Array(rows);
    for (let r = 0; r < rows; r++) {
      const slot = Math.round((times[r]! - start) / SLOT_MS);
      if (slot < 0 || slot >= slots) continue;
      owner[r] = index.get(ids[r]!) ?? -1;
      slotOf[r] = slot;
    }
    for (const [at, targets] of columns) {
      const { values, valid } = readVector(chunk, at, rows, Float32Array);
      for (let r = 0; r < rows; r++) {
        const o = owner[r]!;
        if (o >= 0) targets[o]![slotOf[r]!] = valid(r) ? values[r]! : NaN;
      }
    }
    const plt = readVector(chunk, 2 + PLT, rows, Float32Array);
    const fMin = readVector(chunk, 2 + F_MIN, rows, Float32Array);
    const fMax = readVector(chunk, 2 + F_MAX, rows, Float32Array);
    const unbalance = readVector(chunk, 2 + UNBALANCE, rows, Float32Array);
    const flags = readVector(chunk, 2 + FLOATS, rows, Uint8Array).values;
    for (let r = 0; r < rows; r++) {
      const o = owner[r]!;
      if (o < 0) continue;
      const [input, phase] = owners[o]!;
      const slot = slotOf[r]!;
      // A device's Plt covers 2 hours: keep the highest value reported within the block.
      const block = Math.floor(slot / SLOTS_PER_PLT);
      if (plt.valid(r) && !(input.plt[phase]![block]! >= plt.values[r]!)) {
        input.plt[phase]![block] = plt.values[r]!;
      }
      // Frequency and unbalance are per node: the extremes over its phases, the first value.
      if (fMin.valid(r) && !(input.fMin[slot]! <= fMin.values[r]!)) {
        input.fMin[slot] = fMin.values[r]!;
      }
      if (fMax.valid(r) && !(input.fMax[slot]! >= fMax.values[r]!)) {
        input.fMax[slot] = fMax.values[r]!;
      }
      if (Number.isNaN(input.unbalance[slot]!) && unbalance.valid(r)) {
        input.unbalance[slot] = unbalance.values[r]!;
      }
      if (flags[r]) input.flagged[slot] = 1;
    }
  }
  return inputs;
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
