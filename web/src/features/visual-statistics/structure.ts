/**
 * The grid as the selection panel shows it: LV groups > electrical works > nodes > feeders of
 * one voltage level, from GET /gsm/grid-structure/hv-mv-station-groups?view=visual-statistics.
 */
import { isMvFeeder, type VisualStatisticsView } from "../../../../modules/grid/contract.ts";
import type { Voltage } from "../../lib/voltage.ts";

/** The reshaped station-group data (the grid contract's `VisualStatisticsView`). */
export type { VisualStatisticsView };

/** A feeder with where it sits, for chart titles, summary tables and the panel. */
export interface FeederPlace {
  id: string;
  name: string;
  nodeId: string;
  nodeName: string;
  workName: string;
  lvGroupName: string;
}

/** A tree of the panel: only branches that lead to a feeder of the level. */
export interface PanelGroup {
  id: string;
  name: string;
  works: {
    key: string;
    name: string;
    nodes: { id: string; name: string; feeders: FeederPlace[] }[];
  }[];
}

/** MV feeders: MV lines and transformers with MV estimation (as grid monitoring counts them). */
export { isMvFeeder };

/** The panel tree of a voltage level: at MV only MV feeders, at LV the others. */
export function panelTree(view: VisualStatisticsView, voltage: Voltage): PanelGroup[] {
  const wanted = voltage === "mv";
  const groups: PanelGroup[] = [];
  for (const group of view.lv_groups) {
    const works: PanelGroup["works"] = [];
    for (const work of group.electrical_works) {
      const nodes = work.nodes.map((node) => ({
        id: node.id,
        name: node.name,
        feeders: node.feeders.filter((f) => isMvFeeder(f) === wanted).map((f) => ({
          id: f.id,
          name: f.name,
          nodeId: node.id,
          nodeName: node.name,
          workName: work.name,
          lvGroupName: group.name,
        })),
      })).filter((node) => node.feeders.length > 0);
      if (nodes.length) works.push({ key: work.key, name: work.name, nodes });
    }
    if (works.length) groups.push({ id: group.id, name: group.name, works });
  }
  return groups;
}

/** Every feeder of a tree by id. */
export function feederIndex(tree: readonly PanelGroup[]): Map<string, FeederPlace> {
  const index = new Map<string, FeederPlace>();
  for (const group of tree) {
    for (const work of group.works) {
      for (const node of work.nodes) {
        for (const feeder of node.feeders) index.set(feeder.id, feeder);
      }
    }
  }
  return index;
}

/**
 * The tree narrowed to a search text (case- and accent-insensitive): a matching group, work or
 * node keeps everything below it; otherwise only matching feeders stay.
 */
export function filterTree(tree: readonly PanelGroup[], query: string): PanelGroup[] {
  const needle = fold(query.trim());
  if (!needle) return [...tree];
  const hit = (name: string) => fold(name).includes(needle);
  const groups: PanelGroup[] = [];
  for (const group of tree) {
    if (hit(group.name)) {
      groups.push(group);
      continue;
    }
    const works: PanelGroup["works"] = [];
    for (const work of group.works) {
      if (hit(work.name)) {
        works.push(work);
        continue;
      }
      const nodes = work.nodes.map((node) =>
        hit(node.name) ? node : { ...node, feeders: node.feeders.filter((f) => hit(f.name)) }
      ).filter((node) => node.feeders.length > 0);
      if (nodes.length) works.push({ ...work, nodes });
    }
    if (works.length) groups.push({ ...group, works });
  }
  return groups;
}

function fold(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

/** "Node › Feeder" (the work is left out when it bears the node's name, as it usually does). */
export function feederLabel(place: FeederPlace): string {
  const where = place.workName === place.nodeName
    ? place.nodeName
    : `${place.workName} › ${place.nodeName}`;
  return `${where} › ${place.name}`;
}

/** The selected feeders split by where they are: this level, the other level, nowhere. */
export function splitFeeders(
  ids: readonly string[],
  index: ReadonlyMap<string, FeederPlace>,
  otherIndex: ReadonlyMap<string, FeederPlace>,
): { known: string[]; otherLevel: string[]; unknown: string[] } {
  const known: string[] = [];
  const otherLevel: string[] = [];
  const unknown: string[] = [];
  for (const id of ids) {
    if (index.has(id)) known.push(id);
    else if (otherIndex.has(id)) otherLevel.push(id);
    else unknown.push(id);
  }
  return { known, otherLevel, unknown };
}
