/**
 * Reads a node's 10-minute aggregates from DuckDB into the typed arrays the EN 50160 engine
 * evaluates. Slots without a row stay NaN (missing), never filled in.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { type ComplianceInput, type ComplianceResult, evaluateCompliance } from "../en50160/mod.ts";
import { HARMONIC_ORDERS } from "../ingest/schema.ts";
import { SLOT_MS } from "../ingest/store.ts";

/** Which series hold the node's phases L1..L3 (undefined: the phase never reported). */
export interface NodeSeries {
  phases: readonly (number | undefined)[];
  nominalVoltage: number;
  nominalFrequency: 50 | 60;
}

const SLOTS_PER_PLT = 12;
const nanArray = (n: number) => new Float64Array(n).fill(NaN);

/** Builds the engine input of one node for `[from, to)` from `agg_10min`. */
export async function loadComplianceInput(
  connection: DuckDBConnection,
  node: NodeSeries,
  from: Date,
  to: Date,
): Promise<ComplianceInput> {
  const slots = Math.round((to.getTime() - from.getTime()) / SLOT_MS);
  const blocks = Math.ceil(slots / SLOTS_PER_PLT);
  const phases = node.phases.length;
  const u = Array.from({ length: phases }, () => nanArray(slots));
  const thd = Array.from({ length: phases }, () => nanArray(slots));
  const plt = Array.from({ length: phases }, () => nanArray(blocks));
  const h = HARMONIC_ORDERS.map(() => Array.from({ length: phases }, () => nanArray(slots)));
  const fMin = nanArray(slots);
  const fMax = nanArray(slots);
  const unbalance = nanArray(slots);
  const flagged = new Uint8Array(slots);
  const ids = node.phases.filter((id): id is number => id !== undefined);
  if (ids.length) {
    const harmonicCols = HARMONIC_ORDERS.map((o) => `h${o}`).join(", ");
    const result = await connection.runAndReadAll(
      `SELECT series_id, epoch_ms(slot), u_rms, thd_u, plt, f_min, f_max, unbalance, flagged, ${harmonicCols}
       FROM agg_10min WHERE series_id IN (${ids.join(",")})
         AND slot >= make_timestamp(${from.getTime() * 1000}) AND slot < make_timestamp(${
        to.getTime() * 1000
      })`,
    );
    for (const row of result.getRows()) {
      const phase = node.phases.indexOf(row[0] as number);
      const slot = Math.round((Number(row[1]) - from.getTime()) / SLOT_MS);
      if (phase < 0 || slot < 0 || slot >= slots) continue;
      const num = (v: unknown) => (typeof v === "number" ? v : NaN);
      u[phase]![slot] = num(row[2]);
      thd[phase]![slot] = num(row[3]);
      const block = Math.floor(slot / SLOTS_PER_PLT);
      const p = num(row[4]);
      // A device's Plt covers 2 hours: keep the highest value reported within the block.
      if (!Number.isNaN(p) && !(plt[phase]![block]! >= p)) plt[phase]![block] = p;
      fMin[slot] = Math.min(Number.isNaN(fMin[slot]!) ? Infinity : fMin[slot]!, num(row[5]));
      fMax[slot] = Math.max(Number.isNaN(fMax[slot]!) ? -Infinity : fMax[slot]!, num(row[6]));
      if (Number.isNaN(unbalance[slot]!)) unbalance[slot] = num(row[7]);
      if (row[8] === true) flagged[slot] = 1;
      for (let k = 0; k < HARMONIC_ORDERS.length; k++) h[k]![phase]![slot] = num(row[9 + k]);
    }
  }
  return {
    period: { from, to },
    nominalVoltage: node.nominalVoltage,
    nominalFrequency: node.nominalFrequency,
    u,
    fMin,
    fMax,
    plt,
    unbalance,
    thd,
    h,
    flagged,
  };
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
