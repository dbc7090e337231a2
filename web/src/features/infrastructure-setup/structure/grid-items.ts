/** Pure helpers over the station-group tree: selection paths and map points. */
import type { MapPoint } from "../../../map/map-types.ts";
import type { GridNode, LvGroup, MvFeederGroup, StationGroup } from "./grid-api.ts";

/** What can be selected in the tree. */
export type Selection =
  | { kind: "station"; id: string }
  | { kind: "mvFeederGroup"; id: string }
  | { kind: "lvGroup"; id: string }
  | { kind: "node"; id: string };

/** An item with its ancestors. */
export interface Located {
  station: StationGroup;
  mv?: MvFeederGroup;
  lv?: LvGroup;
  node?: GridNode;
}

/** Finds a selected item and its ancestors, or null when it no longer exists. */
export function locate(structure: readonly StationGroup[], selection: Selection): Located | null {
  for (const station of structure) {
    if (selection.kind === "station" && station.id === selection.id) return { station };
    for (const mv of station.mv_feeder_groups) {
      if (selection.kind === "mvFeederGroup" && mv.id === selection.id) return { station, mv };
      for (const lv of mv.lv_groups) {
        if (selection.kind === "lvGroup" && lv.id === selection.id) return { station, mv, lv };
        for (const node of lv.nodes) {
          if (selection.kind === "node" && node.id === selection.id) {
            return { station, mv, lv, node };
          }
        }
      }
    }
  }
  return null;
}

/** The centre of a list of coordinates, or null when empty. */
function centre(points: readonly { latitude: number; longitude: number }[]) {
  if (!points.length) return null;
  const sum = points.reduce(
    (acc, p) => ({ latitude: acc.latitude + p.latitude, longitude: acc.longitude + p.longitude }),
    { latitude: 0, longitude: 0 },
  );
  return { latitude: sum.latitude / points.length, longitude: sum.longitude / points.length };
}

/**
 * Map points of the structure: nodes at their coordinates, LV and MV groups at the centre of
 * their nodes, station groups at their own coordinates (else the centre of their nodes).
 */
export function structurePoints(
  structure: readonly StationGroup[],
  detail: (kind: MapPoint["kind"], item: { name: string; type?: string }) => string,
): MapPoint[] {
  const points: MapPoint[] = [];
  for (const station of structure) {
    const stationNodes: GridNode[] = [];
    for (const mv of station.mv_feeder_groups) {
      const mvNodes = mv.lv_groups.flatMap((lv) => lv.nodes);
      stationNodes.push(...mvNodes);
      for (const lv of mv.lv_groups) {
        const c = centre(lv.nodes);
        if (c && lv.nodes.length > 1) {
          points.push({
            id: lv.id,
            kind: "lvGroup",
            name: lv.name,
            ...c,
            state: "unknown",
            detail: detail("lvGroup", lv),
          });
        }
        for (const node of lv.nodes) {
          points.push({
            id: node.id,
            kind: "node",
            name: node.name,
            latitude: node.latitude,
            longitude: node.longitude,
            state: "unknown",
            detail: detail("node", {
              name: node.electrical_work.name,
              type: node.electrical_work.type,
            }),
          });
        }
      }
      const c = centre(mvNodes);
      if (c) {
        points.push({
          id: mv.id,
          kind: "mvFeederGroup",
          name: mv.name,
          ...c,
          state: "unknown",
          detail: detail("mvFeederGroup", mv),
        });
      }
    }
    const own = station.latitude !== null && station.longitude !== null
      ? { latitude: station.latitude, longitude: station.longitude }
      : centre(stationNodes);
    if (own) {
      points.push({
        id: station.id,
        kind: "station",
        name: station.name,
        ...own,
        state: "unknown",
        detail: detail("station", station),
      });
    }
  }
  return points;
}

/** Node ids of every LV group of the structure (for the upstream-node choice). */
export function lvGroupOf(structure: readonly StationGroup[], lvGroupId: string): LvGroup | null {
  for (const s of structure) {
    for (const mv of s.mv_feeder_groups) {
      const lv = mv.lv_groups.find((l) => l.id === lvGroupId);
      if (lv) return lv;
    }
  }
  return null;
}

/**
 * Where a new node of an LV group probably stands: the centre of its existing nodes (rounded to
 * 6 decimals, about 0.1 m), or null for an empty group. The form offers it as a starting point.
 */
export function suggestedPosition(
  lvGroup: LvGroup,
): { latitude: number; longitude: number } | null {
  const { nodes } = lvGroup;
  if (!nodes.length) return null;
  const mean = (values: number[]) =>
    Math.round(values.reduce((a, b) => a + b, 0) / values.length * 1e6) / 1e6;
  return {
    latitude: mean(nodes.map((n) => n.latitude)),
    longitude: mean(nodes.map((n) => n.longitude)),
  };
}

const KINDS: readonly Selection["kind"][] = ["station", "mvFeederGroup", "lvGroup", "node"];

/** `?item=node:<id>` of the URL: the selected element, or null when absent or malformed. */
export function parseItem(value: unknown): Selection | null {
  if (typeof value !== "string") return null;
  const colon = value.indexOf(":");
  const kind = value.slice(0, colon) as Selection["kind"];
  const id = value.slice(colon + 1);
  return colon > 0 && KINDS.includes(kind) && /^[\w-]{1,64}$/.test(id) ? { kind, id } : null;
}

/** The `?item=` value of a selection. */
export function formatItem(selection: Selection): string {
  return `${selection.kind}:${selection.id}`;
}

/** What a delete button names: a tree item, or one feeder of a node. */
export type DeleteTarget = Selection | { kind: "feeder"; id: string; nodeId: string };

/**
 * The rule of spec 5 that blocks deleting `what`, as the server's catalogue key, or `null` when
 * it may be deleted: a station with MV feeders, an MV feeder with LV grids, an LV grid with
 * nodes, a node's last feeder. Checked before the irreversible-delete question is asked.
 */
export function deleteBlocker(
  groups: readonly StationGroup[],
  what: DeleteTarget,
): string | null {
  if (what.kind === "feeder") {
    const node = locate(groups, { kind: "node", id: what.nodeId })?.node;
    return node && node.feeders.length <= 1 ? "validation.deleteLastFeeder" : null;
  }
  const found = locate(groups, what);
  if (!found) return null;
  if (what.kind === "station") {
    return found.station.mv_feeder_groups.length ? "validation.deleteStationHasMvFeeders" : null;
  }
  if (what.kind === "mvFeederGroup") {
    return found.mv?.lv_groups.length ? "validation.deleteMvFeederHasLvGrids" : null;
  }
  if (what.kind === "lvGroup") {
    return found.lv?.nodes.length ? "validation.deleteLvGridHasNodes" : null;
  }
  return null;
}
