/**
 * The whole grid's week for the compliance view: each feeder of each node with a cell evaluated
 * by the core (`evaluateGridWeek`: the aggregates in one columnar pass, the PQ records from the
 * rollups where they stand for them), then one
 * verdict per node: not passed when any feeder failed, passed when every feeder passed, else not
 * evaluable; the failing parameters of all its feeders; its lowest data availability.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import {
  type ComplianceResult,
  evaluateGridWeek,
  type GridEvaluation,
  type LimitSet,
} from "../../../core/mod.ts";
import { WEEK_MS } from "./schedule.ts";

/** One feeder of the grid and the node (index) it belongs to. */
export interface GridFeeder {
  node: number;
  id: string;
  name: string;
  phases: readonly (number | undefined)[];
  nominalVoltage: number;
}

/** A node's verdict. */
export interface NodeVerdict {
  passed: boolean | null;
  failed: string[];
  availabilityPct: number;
  feeders: { id: string; name: string; passed: boolean | null; failed: string[] }[];
}

/** Evaluates the feeders over the ISO week starting at `from` (epoch ms). */
export function evaluateGrid(
  connection: DuckDBConnection,
  feeders: readonly GridFeeder[],
  from: number,
  nominalFrequency: 50 | 60,
  limits: LimitSet,
  options: { signal?: AbortSignal; batchSize?: number } = {},
): Promise<GridEvaluation> {
  return evaluateGridWeek(
    connection,
    feeders.map((f) => ({ phases: f.phases, nominalVoltage: f.nominalVoltage, nominalFrequency })),
    new Date(from),
    new Date(from + WEEK_MS),
    limits,
    options,
  );
}

/** The verdict of each of `nodes` nodes from its feeders' results. */
export function nodeVerdicts(
  nodes: number,
  feeders: readonly GridFeeder[],
  results: readonly ComplianceResult[],
): NodeVerdict[] {
  const out: NodeVerdict[] = Array.from({ length: nodes }, () => ({
    passed: true,
    failed: [],
    availabilityPct: 100,
    feeders: [],
  }));
  feeders.forEach((feeder, k) => {
    const result = results[k]!;
    const verdict = out[feeder.node]!;
    const failed = result.parameters.filter((p) => p.passed === false).map((p) => p.parameter);
    verdict.feeders.push({ id: feeder.id, name: feeder.name, passed: result.passed, failed });
    for (const p of failed) if (!verdict.failed.includes(p)) verdict.failed.push(p);
    if (result.passed === false) verdict.passed = false;
    else if (result.passed === null && verdict.passed === true) verdict.passed = null;
    const voltage = result.parameters[0]!;
    const pct = result.slotCount ? (voltage.n / result.slotCount) * 100 : 0;
    verdict.availabilityPct = Math.min(verdict.availabilityPct, pct);
  });
  for (const v of out) if (!v.feeders.length) v.passed = null;
  return out;
}
