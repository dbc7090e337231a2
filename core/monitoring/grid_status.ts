/**
 * Grid status (spec 7 /evm/grid-monitoring/grid-status): per phase, feeder and node, from the
 * latest 20-s values against the customer's thresholds in percent of nominal; the worst state
 * is propagated up the hierarchy, and alarms below an interrupted or silent upstream node are
 * suppressed so that one upstream outage raises one alarm.
 */
import type { LatestValues } from "./latest.ts";

/** States from best to worst; `NO_DATA` ranks between a warning and an interruption. */
export const STATES = [
  "OK",
  "UNDERVOLTAGE",
  "OVERVOLTAGE",
  "OVERCURRENT",
  "NO_DATA",
  "INTERRUPTION",
] as const;
export type GridState = (typeof STATES)[number];
const RANK = Object.fromEntries(STATES.map((s, k) => [s, k])) as Record<GridState, number>;

/** Warning thresholds of the global settings, in percent. */
export interface Thresholds {
  overvoltagePct: number;
  undervoltagePct: number;
  overcurrentPct: number;
}

/** What the evaluation needs about one feeder. */
export interface FeederTopology {
  id: string;
  slot: number;
  nominalCurrentA: number;
  /** Series ids of L1, L2, L3 (undefined when never reported). */
  series: readonly (number | undefined)[];
}

/** What the evaluation needs about one node. */
export interface NodeTopology {
  id: string;
  upstreamNodeId: string | null;
  feeders: readonly FeederTopology[];
}

export interface FeederStatus {
  id: string;
  state: GridState;
  /** Per phase L1..L3: latest voltage (V), current (A), state. */
  phases: { u: number | null; i: number | null; state: GridState }[];
}

export interface NodeStatus {
  id: string;
  state: GridState;
  /** Set when the node's alarm is explained by an upstream node's outage. */
  suppressedBy: string | null;
  lastValueAt: number | null;
  feeders: FeederStatus[];
}

/** A reading older than this is no longer live (three missed 20-s windows). */
export const STALE_MS = 80_000;
/** Below this share of nominal voltage a phase is interrupted (EN 50160: < 5 % of Uref). */
const INTERRUPTION_PCT = 5;

/** The worse of two states. */
export function worst(a: GridState, b: GridState): GridState {
  return RANK[b] > RANK[a] ? b : a;
}

/**
 * State of one phase. A value exactly at a limit is within it: the comparisons are made in
 * percent (u * 100 against un * (100 + pct)) so that e.g. 207 V at 230 V - 10 % is not read as
 * below 230 * 0.9 = 207.00000000000003.
 */
export function phaseState(
  u: number,
  i: number,
  un: number,
  inom: number,
  t: Thresholds,
): GridState {
  if (Number.isNaN(u) && Number.isNaN(i)) return "NO_DATA";
  let state: GridState = "OK";
  if (!Number.isNaN(u)) {
    const pct = u * 100;
    if (pct < un * INTERRUPTION_PCT) return "INTERRUPTION";
    if (pct > un * (100 + t.overvoltagePct)) state = "OVERVOLTAGE";
    else if (pct < un * (100 - t.undervoltagePct)) state = "UNDERVOLTAGE";
  }
  if (!Number.isNaN(i) && inom > 0 && i * 100 > inom * t.overcurrentPct) {
    state = worst(state, "OVERCURRENT");
  }
  return state;
}

/** Evaluates every node at `now`; `un` is the nominal phase voltage in V. */
export function evaluateGridStatus(
  nodes: readonly NodeTopology[],
  latest: LatestValues,
  un: number,
  thresholds: Thresholds,
  now: number,
): NodeStatus[] {
  const out = nodes.map((node) => evaluateNode(node, latest, un, thresholds, now));
  suppressDownstream(nodes, out);
  return out;
}

function evaluateNode(
  node: NodeTopology,
  latest: LatestValues,
  un: number,
  t: Thresholds,
  now: number,
): NodeStatus {
  let nodeState: GridState = "OK";
  let lastValueAt = -Infinity;
  const feeders = node.feeders.map((feeder) => {
    let feederState: GridState = "OK";
    const phases = feeder.series.map((id) => {
      const ts = id === undefined ? -Infinity : latest.ts(id);
      lastValueAt = Math.max(lastValueAt, ts);
      if (id === undefined || now - ts > STALE_MS) {
        return { u: null, i: null, state: "NO_DATA" as GridState };
      }
      const u = latest.u(id);
      const i = latest.i(id);
      const state = phaseState(u, i, un, feeder.nominalCurrentA, t);
      return { u: Number.isNaN(u) ? null : u, i: Number.isNaN(i) ? null : i, state };
    });
    for (const p of phases) feederState = worst(feederState, p.state);
    nodeState = worst(nodeState, feederState);
    return { id: feeder.id, state: feederState, phases };
  });
  return {
    id: node.id,
    state: nodeState,
    suppressedBy: null,
    lastValueAt: Number.isFinite(lastValueAt) ? lastValueAt : null,
    feeders,
  };
}

// An interruption or silence upstream explains the same state downstream: keep the state (the
// operator sees it) but mark the alarm as suppressed by the most upstream node that has it.
function suppressDownstream(nodes: readonly NodeTopology[], statuses: NodeStatus[]): void {
  const byId = new Map(statuses.map((s) => [s.id, s]));
  const upstreamOf = new Map(nodes.map((n) => [n.id, n.upstreamNodeId]));
  for (const status of statuses) {
    if (status.state !== "INTERRUPTION" && status.state !== "NO_DATA") continue;
    let up = upstreamOf.get(status.id) ?? null;
    const seen = new Set<string>();
    while (up && !seen.has(up)) {
      seen.add(up);
      const upstream = byId.get(up);
      if (upstream && (upstream.state === "INTERRUPTION" || upstream.state === "NO_DATA")) {
        status.suppressedBy = up;
      }
      up = upstreamOf.get(up) ?? null;
    }
  }
}

/**
 * Until when an evaluation at `now` stays right without new values: the first moment a live
 * phase goes stale (NO_DATA), or Infinity when none is live.
 */
export function liveUntil(
  nodes: readonly NodeTopology[],
  latest: LatestValues,
  now: number,
): number {
  let until = Infinity;
  for (const node of nodes) {
    for (const feeder of node.feeders) {
      for (const id of feeder.series) {
        if (id === undefined) continue;
        const end = latest.ts(id) + STALE_MS;
        if (end >= now && end < until) until = end;
      }
    }
  }
  return until;
}

/** Alarms an operator must act on: nodes not OK whose alarm is not suppressed. */
export function countAlarms(statuses: readonly NodeStatus[]): number {
  return statuses.filter((s) => s.state !== "OK" && s.suppressedBy === null).length;
}
