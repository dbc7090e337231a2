/**
 * The grid structure of a customer: creation in one transaction (the demo seed), the nested read
 * model, its version marker, and the visual-statistics view of it.
 */
import { asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../../kernel/mod.ts";
import {
  changeCounters,
  feeders,
  lvGroups,
  mvFeederGroups,
  nodes,
  stationGroups,
} from "../schema.ts";
import {
  type ElectricalWorkType,
  type FeederDirection,
  type FeederType,
  isMvFeeder,
  type NodeDto,
  type StationGroupDto,
  type VisualStatisticsView,
  type VisualStatisticsWork,
} from "./contract.ts";
import { feederDto } from "./feeder_rules.ts";

/** Input of {@link createStructure}: the same tree without ids (ids are generated). */
export interface NewStationGroup {
  name: string;
  latitude?: number;
  longitude?: number;
  mvFeederGroups: {
    name: string;
    lvGroups: {
      name: string;
      nodes: {
        name: string;
        electricalWork: { name: string; type: ElectricalWorkType };
        latitude: number;
        longitude: number;
        electricalDistance?: number;
        feeders: {
          slot: number;
          name: string;
          type: FeederType;
          direction: FeederDirection;
          nominalCurrentA: number;
          /** Type-specific fields (modules/grid/validation.ts); none when omitted. */
          parameters?: Record<string, unknown>;
        }[];
      }[];
    }[];
  }[];
}

const id = () => crypto.randomUUID();

/** Creates station groups with everything below them in one transaction; returns node ids by name. */
export async function createStructure(
  db: Db,
  customerKey: string,
  groups: NewStationGroup[],
): Promise<Map<string, string>> {
  const nodeIds = new Map<string, string>();
  await db.transaction(async (tx) => {
    for (const group of groups) {
      const groupId = id();
      await tx.insert(stationGroups).values({
        id: groupId,
        customerKey,
        name: group.name,
        latitude: group.latitude ?? null,
        longitude: group.longitude ?? null,
      });
      for (const mv of group.mvFeederGroups) {
        const mvId = id();
        await tx.insert(mvFeederGroups).values({
          id: mvId,
          stationGroupId: groupId,
          name: mv.name,
        });
        for (const lv of mv.lvGroups) {
          const lvId = id();
          await tx.insert(lvGroups).values({ id: lvId, mvFeederGroupId: mvId, name: lv.name });
          let upstream: string | null = null;
          for (const node of lv.nodes) {
            const nodeId = id();
            await tx.insert(nodes).values({
              id: nodeId,
              lvGroupId: lvId,
              name: node.name,
              electricalWorkKey: id(),
              electricalWorkName: node.electricalWork.name,
              electricalWorkType: node.electricalWork.type,
              latitude: node.latitude,
              longitude: node.longitude,
              electricalDistance: node.electricalDistance ?? 0,
              upstreamNodeId: upstream,
            });
            if (node.feeders.length) {
              await tx.insert(feeders).values(node.feeders.map((f) => ({
                id: id(),
                nodeId,
                slot: f.slot,
                name: f.name,
                type: f.type,
                direction: f.direction,
                nominalCurrentA: f.nominalCurrentA,
                parameters: f.parameters ?? {},
              })));
            }
            nodeIds.set(node.name, nodeId);
            // Nodes of an LV group are listed from the transformer outwards.
            upstream = nodeId;
          }
        }
      }
    }
  });
  return nodeIds;
}

/**
 * A marker that changes whenever what {@link readStructure} reads or which cell is installed
 * where changes (any customer): the `structure` change counter, bumped by triggers in the
 * writing transaction (migration 0027). One row, so that the monitoring can re-read a structure
 * of thousands of nodes only when it changed (scanning the tables for it took about a second of
 * the embedded database's event loop at 5,000 nodes, twice a minute).
 */
export async function structureVersion(db: Db): Promise<string> {
  return String(await changeCounter(db, "structure"));
}

/** The current value of a change counter (migration 0027): `structure` or `cells`. */
export async function changeCounter(db: Db, name: "structure" | "cells"): Promise<number> {
  const [row] = await db.select({ version: changeCounters.version }).from(changeCounters)
    .where(eq(changeCounters.name, name));
  if (!row) throw new Error(`Change counter ${name} is missing (migration 0027)`);
  return row.version;
}

/** The nested structure of one customer, ordered by name (empty list when none is defined). */
export async function readStructure(db: Db, customerKey: string): Promise<StationGroupDto[]> {
  const groups = await db.select().from(stationGroups)
    .where(eq(stationGroups.customerKey, customerKey)).orderBy(asc(stationGroups.name));
  if (!groups.length) return [];
  const mvs = await db.select().from(mvFeederGroups)
    .where(inArray(mvFeederGroups.stationGroupId, groups.map((g) => g.id))).orderBy(
      asc(mvFeederGroups.name),
    );
  const lvs = mvs.length
    ? await db.select().from(lvGroups).where(
      inArray(lvGroups.mvFeederGroupId, mvs.map((m) => m.id)),
    )
      .orderBy(asc(lvGroups.name))
    : [];
  const nodeRows = lvs.length
    ? await db.select().from(nodes).where(inArray(nodes.lvGroupId, lvs.map((l) => l.id)))
      .orderBy(asc(nodes.electricalDistance), asc(nodes.name))
    : [];
  const feederRows = nodeRows.length
    ? await db.select().from(feeders).where(inArray(feeders.nodeId, nodeRows.map((n) => n.id)))
      .orderBy(asc(feeders.slot))
    : [];
  const feedersOf = groupBy(feederRows, (f) => f.nodeId);
  const nodesOf = groupBy(nodeRows, (n) => n.lvGroupId);
  const lvsOf = groupBy(lvs, (l) => l.mvFeederGroupId);
  const mvsOf = groupBy(mvs, (m) => m.stationGroupId);
  return groups.map((g) => ({
    id: g.id,
    name: g.name,
    latitude: g.latitude,
    longitude: g.longitude,
    mv_feeder_groups: (mvsOf.get(g.id) ?? []).map((mv) => ({
      id: mv.id,
      name: mv.name,
      lv_groups: (lvsOf.get(mv.id) ?? []).map((lv) => ({
        id: lv.id,
        name: lv.name,
        nodes: (nodesOf.get(lv.id) ?? []).map((n) => ({
          id: n.id,
          name: n.name,
          latitude: n.latitude,
          longitude: n.longitude,
          electrical_distance: n.electricalDistance,
          upstream_node_id: n.upstreamNodeId,
          electrical_work: {
            key: n.electricalWorkKey,
            name: n.electricalWorkName,
            type: n.electricalWorkType,
            latitude: n.latitude,
            longitude: n.longitude,
          },
          feeders: (feedersOf.get(n.id) ?? []).map(feederDto),
        })),
      })),
    })),
  }));
}

/** Every node of a structure, station group by station group. */
export function allNodes(structure: readonly StationGroupDto[]): NodeDto[] {
  return structure.flatMap((g) =>
    g.mv_feeder_groups.flatMap((m) => m.lv_groups.flatMap((l) => l.nodes))
  );
}

function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = map.get(k);
    if (list) list.push(row);
    else map.set(k, [row]);
  }
  return map;
}

/**
 * Groups the electrical works per LV group, takes node coordinates from the electrical work,
 * and flags whether any MV feeder exists (spec 2.1, visual statistics).
 */
export function visualStatisticsView(structure: readonly StationGroupDto[]): VisualStatisticsView {
  let hasMv = false;
  const lvGroupsOut: VisualStatisticsView["lv_groups"] = [];
  for (const g of structure) {
    for (const mv of g.mv_feeder_groups) {
      for (const lv of mv.lv_groups) {
        const works = new Map<string, VisualStatisticsWork>();
        for (const { electrical_work: ew, ...node } of lv.nodes) {
          hasMv ||= node.feeders.some(isMvFeeder);
          const work = works.get(ew.key) ?? { ...ew, nodes: [] };
          work.nodes.push({ ...node, latitude: ew.latitude, longitude: ew.longitude });
          works.set(ew.key, work);
        }
        lvGroupsOut.push({
          id: lv.id,
          name: lv.name,
          station_group: { id: g.id, name: g.name },
          mv_feeder_group: { id: mv.id, name: mv.name },
          electrical_works: [...works.values()],
        });
      }
    }
  }
  return { has_mv_feeders: hasMv, lv_groups: lvGroupsOut };
}
