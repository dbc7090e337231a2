/**
 * Nodes with their electrical work and feeders (spec 3, 5): create with 1 to 6 feeders, read,
 * update, delete (the node's cells go back to 'waiting for configuration'), and the feeders of a
 * node one by one under the MV rules (feeder_rules.ts) and the MV topology (356, 358).
 */
import { asc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import {
  AppError,
  type Db,
  type EventBus,
  fieldIssues,
  validationError,
} from "../../../kernel/mod.ts";
import {
  cellIoModules,
  cellMappings,
  cells,
  feeders,
  mvTopologySections,
  nodes,
} from "../schema.ts";
import { type Executor, findLvGroup, findNode, newId, notFound, type Tx } from "./access.ts";
import {
  estimatesMv,
  type FeederChangeDto,
  type FeederInput,
  gridName,
  isMvFeeder,
  type NewNodeInput,
  type NodeUpdateInput,
  type SetupNodeDto,
} from "./contract.ts";
import { checkNodeFeeders, feederDto, refuseTooManyFeeders, toFeederRow } from "./feeder_rules.ts";
import { MAX_FEEDERS, NEW_NODE_NAME } from "./validation.ts";

/** A new name of a node follows the limits of new nodes (3-20 characters). */
const newNodeName = z.object({ name: gridName(NEW_NODE_NAME) });

/**
 * Puts the cells of deleted nodes back in 'waiting for configuration' (spec 4): type
 * WAITING_FOR_INSTALLATION, no node, status READY_FOR_CONFIGURATION, line mapping and I/O modules
 * removed (the mapping version moves on so the cell drops the old one). Runs in the caller's
 * transaction; returns the cell ids so the caller publishes "grid.cellsToConfigure" after the
 * commit.
 */
export async function returnCellsToWaiting(tx: Executor, nodeIds: string[]): Promise<string[]> {
  if (!nodeIds.length) return [];
  const rows = await tx.update(cells).set({
    type: "WAITING_FOR_INSTALLATION",
    nodeId: null,
    status: "READY_FOR_CONFIGURATION",
    mapping: {},
    validation: null,
    mappingVersion: sql`${cells.mappingVersion} + 1`,
  }).where(inArray(cells.nodeId, nodeIds)).returning({ id: cells.id });
  const cellIds = rows.map((r) => r.id).sort();
  if (cellIds.length) {
    await tx.delete(cellMappings).where(inArray(cellMappings.cellId, cellIds));
    await tx.delete(cellIoModules).where(inArray(cellIoModules.cellId, cellIds));
  }
  return cellIds;
}

/** The upstream node, which must be another node of the same LV group. */
async function checkUpstream(tx: Tx, lvGroupId: string, upstream?: string | null, self?: string) {
  if (!upstream) return null;
  const [row] = await tx.select({ id: nodes.id, lvGroupId: nodes.lvGroupId }).from(nodes)
    .where(eq(nodes.id, upstream));
  if (!row || row.lvGroupId !== lvGroupId || row.id === self) {
    throw validationError([{ path: "upstream_node_id", key: "grid.elementNotFound", params: {} }]);
  }
  return row.id;
}

/** A node's MV feeders in an MV topology block changes that would remove them. */
async function inTopology(tx: Tx, feederIds: string[]): Promise<boolean> {
  if (!feederIds.length) return false;
  const rows = await tx.select().from(mvTopologySections)
    .where(inArray(mvTopologySections.feederId, feederIds)).limit(1);
  return rows.length > 0;
}

/** Create, read, update and delete of nodes and their feeders for a customer. */
export class NodeOperations {
  constructor(private readonly db: Db, private readonly bus?: EventBus) {}

  /** Creates a node with its electrical work and 1 to 6 feeders. */
  async create(customerKey: string, input: NewNodeInput): Promise<SetupNodeDto> {
    refuseTooManyFeeders(input.feeders.length);
    const created = await this.db.transaction(async (tx) => {
      await findLvGroup(tx, customerKey, input.lv_group_id, true);
      const upstream = await checkUpstream(tx, input.lv_group_id, input.upstream_node_id);
      const nodeId = newId();
      const after = input.feeders.map((f, i) => toFeederRow(nodeId, i + 1, f));
      await checkNodeFeeders(tx, nodeId, [], after);
      await tx.insert(nodes).values({
        id: nodeId,
        lvGroupId: input.lv_group_id,
        name: input.name,
        electricalWorkKey: newId(),
        electricalWorkName: input.electrical_work.name,
        electricalWorkType: input.electrical_work.type,
        latitude: input.latitude,
        longitude: input.longitude,
        electricalDistance: input.electrical_distance ?? 0,
        upstreamNodeId: upstream,
      });
      await tx.insert(feeders).values(after);
      return nodeId;
    });
    return await this.get(customerKey, created);
  }

  /** A node with its feeders, as the setup calls answer it. */
  async get(customerKey: string, id: string): Promise<SetupNodeDto> {
    const node = await findNode(this.db, customerKey, id);
    const rows = await this.db.select().from(feeders).where(eq(feeders.nodeId, id))
      .orderBy(asc(feeders.slot));
    return {
      id: node.id,
      lv_group_id: node.lvGroupId,
      name: node.name,
      latitude: node.latitude,
      longitude: node.longitude,
      electrical_distance: node.electricalDistance,
      upstream_node_id: node.upstreamNodeId,
      electrical_work: {
        key: node.electricalWorkKey,
        name: node.electricalWorkName,
        type: node.electricalWorkType,
        latitude: node.latitude,
        longitude: node.longitude,
      },
      feeders: rows.map(feederDto),
    };
  }

  /** Updates a node and its electrical work; a changed node name follows the new-node limits. */
  async update(customerKey: string, id: string, input: NodeUpdateInput): Promise<SetupNodeDto> {
    await this.db.transaction(async (tx) => {
      const node = await findNode(tx, customerKey, id, true);
      if (input.name !== node.name) {
        const renamed = newNodeName.safeParse({ name: input.name });
        if (renamed.error) throw validationError(fieldIssues(renamed.error.issues, input));
      }
      const upstream = await checkUpstream(tx, node.lvGroupId, input.upstream_node_id, id);
      await tx.update(nodes).set({
        name: input.name,
        electricalWorkName: input.electrical_work.name,
        electricalWorkType: input.electrical_work.type,
        latitude: input.latitude,
        longitude: input.longitude,
        electricalDistance: input.electrical_distance ?? node.electricalDistance,
        upstreamNodeId: upstream,
      }).where(eq(nodes.id, id));
    });
    return await this.get(customerKey, id);
  }

  /**
   * Deletes a node with its feeders (refused with 358 while a feeder is part of an MV
   * topology); its cells go back to 'waiting for configuration' in the same transaction.
   */
  async delete(customerKey: string, id: string): Promise<{ cellIds: string[] }> {
    const cellIds = await this.db.transaction(async (tx) => {
      const node = await findNode(tx, customerKey, id, true);
      const own = await tx.select({ id: feeders.id }).from(feeders).where(eq(feeders.nodeId, id));
      if (await inTopology(tx, own.map((f) => f.id))) throw new AppError(358);
      const returned = await returnCellsToWaiting(tx, [id]);
      // Nodes fed through this one are now fed by its upstream node.
      await tx.update(nodes).set({ upstreamNodeId: node.upstreamNodeId })
        .where(eq(nodes.upstreamNodeId, id));
      await tx.delete(feeders).where(eq(feeders.nodeId, id));
      await tx.delete(nodes).where(eq(nodes.id, id));
      return returned;
    });
    if (cellIds.length) {
      await this.bus?.publish("grid.cellsToConfigure", {
        customerKey,
        cellIds,
        count: cellIds.length,
        reason: "DELETED_PARENT",
      });
    }
    return { cellIds };
  }

  /** Adds a feeder in the lowest free slot (at most 6 per node). */
  async addFeeder(
    customerKey: string,
    nodeId: string,
    input: FeederInput,
  ): Promise<FeederChangeDto> {
    return await this.db.transaction(async (tx) => {
      await findNode(tx, customerKey, nodeId, true);
      const before = await tx.select().from(feeders).where(eq(feeders.nodeId, nodeId));
      refuseTooManyFeeders(before.length + 1);
      const used = new Set(before.map((f) => f.slot));
      const slot = Array.from({ length: MAX_FEEDERS }, (_, i) => i + 1).find((s) => !used.has(s))!;
      const row = toFeederRow(nodeId, slot, input);
      const result = await checkNodeFeeders(tx, nodeId, before, [...before, row]);
      await tx.insert(feeders).values(row);
      return { feeder: feederDto(row), ...result };
    });
  }

  /** Updates a feeder; MV estimation changes follow codes 307, 308, 309 and 313. */
  async updateFeeder(
    customerKey: string,
    nodeId: string,
    feederId: string,
    input: FeederInput,
  ): Promise<FeederChangeDto> {
    return await this.db.transaction(async (tx) => {
      await findNode(tx, customerKey, nodeId, true);
      const before = await tx.select().from(feeders).where(eq(feeders.nodeId, nodeId));
      const current = before.find((f) => f.id === feederId) ?? notFound();
      const next = { ...toFeederRow(nodeId, current.slot, input), id: feederId };
      if (!isMvFeeder(next) && await inTopology(tx, [feederId])) throw new AppError(356);
      const after = before.map((f) => (f.id === feederId ? next : f));
      const result = await checkNodeFeeders(tx, nodeId, before, after);
      const { id: _id, nodeId: _node, slot: _slot, ...changes } = next;
      await tx.update(feeders).set(changes).where(eq(feeders.id, feederId));
      return { feeder: feederDto(next), ...result };
    });
  }

  /**
   * Deletes a feeder. Refused for the last feeder of a node, for a transformer with MV
   * estimation while MV lines exist (303) and for an MV feeder in a topology (356).
   */
  async deleteFeeder(customerKey: string, nodeId: string, feederId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await findNode(tx, customerKey, nodeId, true);
      const before = await tx.select().from(feeders).where(eq(feeders.nodeId, nodeId));
      const current = before.find((f) => f.id === feederId) ?? notFound();
      if (before.length === 1) throw new AppError("validation.deleteLastFeeder");
      if (await inTopology(tx, [feederId])) throw new AppError(356);
      const after = before.filter((f) => f.id !== feederId);
      const mvLines = after.some((f) => f.type === "MV_LINE");
      if (estimatesMv(current) && mvLines && !after.some(estimatesMv)) throw new AppError(303);
      await checkNodeFeeders(tx, nodeId, before, after);
      await tx.delete(feeders).where(eq(feeders.id, feederId));
    });
  }
}
