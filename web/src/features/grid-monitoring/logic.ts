/** The screen's logic without React: list rows, trigger deltas, the running request's axis. */
import { DELTA_LIMITS, isDelta } from "../../../../modules/monitoring/contract.ts";
import type { GridState, GridStatus, NodeStatus, RequestValues } from "./grid-types.ts";

export type GroupKind = "station" | "mv" | "lv";

/** The list's filter: one state, or the alarms (not OK, and no upstream outage explains it). */
export type ListFilter = GridState | "ALARMS";

/** True for a node that raises an alarm of its own (what the alarm count counts). */
export function isAlarm(node: NodeStatus): boolean {
  return node.state !== "OK" && node.suppressed_by === null;
}

/** True when `node` passes `filter` (`null`: every node). */
export function passesFilter(node: NodeStatus, filter: ListFilter | null): boolean {
  if (filter === null) return true;
  return filter === "ALARMS" ? isAlarm(node) : node.state === filter;
}

/** How many nodes of a group are in each state (states without a node left out). */
export type StateCounts = Partial<Record<GridState, number>>;

/** One line of the list. */
export type ListRow =
  | {
    kind: GroupKind;
    id: string;
    name: string;
    state: GridState;
    path: string[];
    /** Every node of the group, the filter aside: the distribution a group row shows. */
    counts: StateCounts;
  }
  | { kind: "node"; id: string; node: NodeStatus; path: string[] };

function countStates(nodes: readonly NodeStatus[], into: StateCounts = {}): StateCounts {
  for (const n of nodes) into[n.state] = (into[n.state] ?? 0) + 1;
  return into;
}

function addCounts(into: StateCounts, from: StateCounts): StateCounts {
  for (const [state, n] of Object.entries(from) as [GridState, number][]) {
    into[state] = (into[state] ?? 0) + n;
  }
  return into;
}

/** Flattens the tree to rows, keeping the groups that hold a node that `keep` accepts. */
export function listRows(status: GridStatus, keep: (node: NodeStatus) => boolean): ListRow[] {
  const rows: ListRow[] = [];
  for (const g of status.station_groups) {
    const groupRows: ListRow[] = [];
    const groupCounts: StateCounts = {};
    for (const m of g.mv_feeder_groups) {
      const mvRows: ListRow[] = [];
      const mvCounts: StateCounts = {};
      for (const l of m.lv_groups) {
        const path = [g.name, m.name, l.name];
        const counts = countStates(l.nodes);
        addCounts(mvCounts, counts);
        const nodes = l.nodes.filter(keep).map((node): ListRow => ({
          kind: "node",
          id: node.id,
          node,
          path,
        }));
        if (!nodes.length) continue;
        mvRows.push({ kind: "lv", id: l.id, name: l.name, state: l.state, path, counts }, ...nodes);
      }
      addCounts(groupCounts, mvCounts);
      if (!mvRows.length) continue;
      groupRows.push(
        {
          kind: "mv",
          id: m.id,
          name: m.name,
          state: m.state,
          path: [g.name, m.name],
          counts: mvCounts,
        },
        ...mvRows,
      );
    }
    if (!groupRows.length) continue;
    rows.push({
      kind: "station",
      id: g.id,
      name: g.name,
      state: g.state,
      path: [g.name],
      counts: groupCounts,
    });
    rows.push(...groupRows);
  }
  return rows;
}

/** The node with `id` in a status answer, or `null` when the level has no such node. */
export function findNode(status: GridStatus, id: string | null): NodeStatus | null {
  if (!id) return null;
  for (const g of status.station_groups) {
    for (const m of g.mv_feeder_groups) {
      for (const l of m.lv_groups) {
        for (const node of l.nodes) if (node.id === id) return node;
      }
    }
  }
  return null;
}

/** Every node's state by its id (what the map's network is coloured by). */
export function statesOf(status: GridStatus): Map<string, GridState> {
  const out = new Map<string, GridState>();
  for (const g of status.station_groups) {
    for (const m of g.mv_feeder_groups) {
      for (const l of m.lv_groups) for (const n of l.nodes) out.set(n.id, n.state);
    }
  }
  return out;
}

/**
 * Whether the Medium Voltage toggle is enabled (spec 2.4): it follows the selected node when
 * the list shows it, else the grid. At MV, every listed node has MV values.
 */
export function mvAvailable(status: GridStatus | null, selected: string | null): boolean {
  if (!status) return true;
  if (!status.has_mv_values) return false;
  const node = findNode(status, selected);
  return node ? node.has_mv_values : true;
}

/** Spec 5 and the server's rule: absolute current deltas of a trigger, 1 to 3000 A, 2 decimals. */
export const DELTA_MIN_A = DELTA_LIMITS.min;
export const DELTA_MAX_A = DELTA_LIMITS.max;

/** The error key of a delta as typed, or null when it is valid. */
export function deltaError(text: string): "required" | "range" | null {
  const value = text.trim().replace(",", ".");
  if (!value) return "required";
  return /^\d+(\.\d+)?$/.test(value) && isDelta(Number(value)) ? null : "range";
}

/**
 * The phases' currents on one time axis: the union of their times, null where a phase has no
 * value, and a null slot between values more than two intervals apart so a gap stays a gap.
 */
export function alignPhases(
  phases: RequestValues["feeders"][number]["phases"],
): { times: number[]; currents: (number | null)[][] } {
  const all = [...new Set(phases.flatMap((p) => p.t))].sort((a, b) => a - b);
  const times: number[] = [];
  for (const [k, ts] of all.entries()) {
    if (k && ts - all[k - 1]! > 40_000) times.push(all[k - 1]! + 20_000);
    times.push(ts);
  }
  const currents = phases.map((p) => {
    const at = new Map(p.t.map((ts, k) => [ts, p.i[k] ?? null]));
    return times.map((ts) => at.get(ts) ?? null);
  });
  return { times, currents };
}
