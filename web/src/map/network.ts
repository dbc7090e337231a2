/**
 * The grid network drawn on the maps, built from the grid structure (GET
 * /gsm/grid-structure/hv-mv-station-groups) and the states of its nodes: station -> MV feeder
 * -> LV group -> nodes as lines, each coloured by the worst state along it, the stations as
 * symbols, and a point per group for its name. Pure (no maplibre, no React) so tests import it.
 *
 * An MV feeder's span from the station takes the state of the transformer station it feeds
 * (unknown when that node is not measured at the level), an LV group's line the worst of its
 * nodes.
 *
 * Topology: within an LV group a node hangs on its upstream node (the structure's
 * `upstream_node_id`), nodes ordered so that every node follows its upstream one; a node without
 * one (other than the group's head) follows the node before it in the structure's (feeder)
 * order. The group's head (its first root, the transformer station) is fed by the MV feeder
 * from the station; without station coordinates the MV feeder links its LV groups' heads in
 * order.
 */
import type { Feature, FeatureCollection, MultiLineString, Point } from "geojson";
import type { StationGroupDto } from "../../../modules/grid/contract.ts";
import type { MapState } from "./map-types.ts";

/** Severity of the states: a line or a group takes its worst node's state. */
export const STATE_RANK: Readonly<Record<MapState, number>> = {
  ok: 0,
  unknown: 1,
  offline: 2,
  warning: 3,
  critical: 4,
};

/** The worst of some states; "unknown" when there is none. */
export function worstState(states: Iterable<MapState | undefined>): MapState {
  let worst: MapState | undefined;
  for (const s of states) {
    if (s && (worst === undefined || STATE_RANK[s] > STATE_RANK[worst])) worst = s;
  }
  return worst ?? "unknown";
}

type StructureNode =
  StationGroupDto["mv_feeder_groups"][number]["lv_groups"][number]["nodes"][number];
type Position = [number, number];

/**
 * The nodes of an LV group in topological order: each node after its upstream node (children in
 * the structure's order), orphans after the node before them. Cycles and upstream nodes outside
 * the group are treated as no upstream.
 */
export function topologicalOrder<N extends { id: string; upstream_node_id: string | null }>(
  nodes: readonly N[],
): { node: N; parent: N | null }[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const children = new Map<string, N[]>();
  const roots: N[] = [];
  for (const n of nodes) {
    const up = n.upstream_node_id;
    if (up && up !== n.id && byId.has(up)) {
      const list = children.get(up) ?? [];
      list.push(n);
      children.set(up, list);
    } else roots.push(n);
  }
  const out: { node: N; parent: N | null }[] = [];
  const seen = new Set<string>();
  const visit = (node: N, parent: N | null) => {
    const stack: { node: N; parent: N | null }[] = [{ node, parent }];
    while (stack.length) {
      const item = stack.pop()!;
      if (seen.has(item.node.id)) continue;
      seen.add(item.node.id);
      out.push(item);
      const kids = children.get(item.node.id) ?? [];
      for (let k = kids.length - 1; k >= 0; k--) stack.push({ node: kids[k]!, parent: item.node });
    }
  };
  let previous: N | null = null;
  for (const root of roots) {
    visit(root, previous);
    previous = out[out.length - 1]?.node ?? null;
  }
  // Nodes only reachable through a cycle: appended after the node before them.
  for (const n of nodes) {
    if (!seen.has(n.id)) visit(n, out[out.length - 1]?.node ?? null);
  }
  return out;
}

/**
 * Lines through the ordered nodes: a line goes on while the next node hangs on its last node,
 * and a branch starts a new line at the node it hangs on.
 */
export function runsOf<N extends { id: string }>(
  ordered: readonly { node: N; parent: N | null }[],
  at: (node: N) => Position,
): Position[][] {
  const runs: Position[][] = [];
  let current: Position[] | null = null;
  let last: N | null = null;
  for (const { node, parent } of ordered) {
    if (!parent) {
      current = null;
    } else if (current && last && parent.id === last.id) {
      current.push(at(node));
    } else {
      current = [at(parent), at(node)];
      runs.push(current);
    }
    if (!parent) {
      current = [at(node)];
      runs.push(current);
    }
    last = node;
  }
  return runs.filter((r) => r.length > 1);
}

/** The point halfway along the longest of some lines (where a group's name goes). */
export function labelPoint(lines: readonly Position[][]): Position | null {
  const length = (line: readonly Position[]) =>
    line.slice(1).reduce(
      (sum, p, i) => sum + Math.hypot(p[0] - line[i]![0], p[1] - line[i]![1]),
      0,
    );
  let best: Position[] | null = null;
  for (const line of lines) if (!best || length(line) > length(best)) best = line;
  if (!best || !best.length) return null;
  let rest = length(best) / 2;
  for (let i = 1; i < best.length; i++) {
    const a = best[i - 1]!, b = best[i]!;
    const d = Math.hypot(b[0] - a[0], b[1] - a[1]);
    if (d >= rest && d > 0) {
      const t = rest / d;
      return [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])];
    }
    rest -= d;
  }
  return best[0]!;
}

export type NetworkKind = "station" | "mvFeederGroup" | "lvGroup";

/** What the map draws of the network. */
export interface MapNetwork {
  /** MV feeder and LV group lines: properties `kind`, `id`, `name`, `state`. */
  lines: FeatureCollection<MultiLineString>;
  /** Stations (symbols) and the name points of the groups: `kind`, `id`, `name`, `state`. */
  places: FeatureCollection<Point>;
}

/**
 * Builds the network of a structure; `stateOf` gives a node's state (undefined: not shown at
 * this level, e.g. an LV-only node at MV). With `lv: false` the LV groups' own lines are left
 * out (the MV map shows the MV feeders). `mvOrder` holds, per MV feeder group, the nodes of its
 * saved MV topology in order: the MV line then runs from the station through them in that
 * order; a group without one is drawn as spans from the station to its LV groups' heads.
 */
export function buildNetwork(
  structure: readonly StationGroupDto[],
  stateOf: (nodeId: string) => MapState | undefined,
  options: { lv?: boolean; mvOrder?: ReadonlyMap<string, readonly string[]> } = {},
): MapNetwork {
  const lv = options.lv ?? true;
  const lines: Feature<MultiLineString>[] = [];
  const places: Feature<Point>[] = [];
  const at = (n: StructureNode): Position => [n.longitude, n.latitude];
  const place = (kind: NetworkKind, id: string, name: string, state: MapState, p: Position) =>
    places.push({
      type: "Feature",
      properties: { kind, id, name, state },
      geometry: { type: "Point", coordinates: p },
    });
  for (const station of structure) {
    const stationAt: Position | null = station.latitude !== null && station.longitude !== null
      ? [station.longitude, station.latitude]
      : null;
    const stationStates: (MapState | undefined)[] = [];
    for (const mv of station.mv_feeder_groups) {
      const heads: Position[] = [];
      const headStates: (MapState | undefined)[] = [];
      const mvStates: (MapState | undefined)[] = [];
      for (const group of mv.lv_groups) {
        const ordered = topologicalOrder(group.nodes);
        const states = group.nodes.map((n) => stateOf(n.id));
        mvStates.push(...states);
        if (!ordered.length) continue;
        heads.push(at(ordered[0]!.node));
        headStates.push(stateOf(ordered[0]!.node.id));
        if (!lv) continue;
        const runs = runsOf(ordered, at);
        if (!runs.length) continue;
        const state = worstState(states);
        lines.push({
          type: "Feature",
          properties: { kind: "lvGroup", id: group.id, name: group.name, state },
          geometry: { type: "MultiLineString", coordinates: runs },
        });
        const label = labelPoint(runs);
        if (label) place("lvGroup", group.id, group.name, state, label);
      }
      stationStates.push(...mvStates);
      const chain = mvChain(mv, options.mvOrder?.get(mv.id), at);
      const stops = chain && stationAt ? [{ at: stationAt, id: "" }, ...chain] : chain;
      // Along an MV feeder lie the station and the LV groups' heads (their transformers): each
      // span from the station takes its head's state; linked heads take the worst of them. With
      // a saved MV topology, the line runs through its nodes in order, each span in the state of
      // the node it reaches.
      const spans: { run: Position[]; state: MapState }[] = stops
        ? stops.slice(1).map((end, i) => ({
          run: [stops[i]!.at, end.at],
          state: worstState([stateOf(end.id)]),
        }))
        : stationAt
        ? heads.map((h, i) => ({ run: [stationAt, h], state: worstState([headStates[i]]) }))
        : heads.length > 1
        ? [{ run: heads, state: worstState(headStates) }]
        : [];
      if (!spans.length) continue;
      for (const span of spans) {
        lines.push({
          type: "Feature",
          properties: { kind: "mvFeederGroup", id: mv.id, name: mv.name, state: span.state },
          geometry: { type: "MultiLineString", coordinates: [span.run] },
        });
      }
      const state = worstState(headStates);
      const label = labelPoint(spans.map((s) => s.run));
      if (label) place("mvFeederGroup", mv.id, mv.name, state, label);
    }
    if (stationAt) {
      place("station", station.id, station.name, worstState(stationStates), stationAt);
    }
  }
  return {
    lines: { type: "FeatureCollection", features: lines },
    places: { type: "FeatureCollection", features: places },
  };
}

/**
 * The nodes of an MV feeder group's saved MV topology, in order, that lie in the group and have
 * coordinates; null without a topology (or with none of its nodes placed).
 */
function mvChain(
  mv: StationGroupDto["mv_feeder_groups"][number],
  order: readonly string[] | undefined,
  at: (n: StructureNode) => Position,
): { at: Position; id: string }[] | null {
  if (!order?.length) return null;
  const nodes = new Map(mv.lv_groups.flatMap((g) => g.nodes).map((n) => [n.id, n]));
  const chain = order.flatMap((id) => {
    const node = nodes.get(id);
    return node ? [{ at: at(node), id }] : [];
  });
  return chain.length ? chain : null;
}
