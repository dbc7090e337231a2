/**
 * Grid setup: create, update and delete station groups, MV feeder groups, LV groups, nodes with
 * their electrical work, and feeders, with every rule of spec 5 and the 3xx codes of spec 8.2.
 * Each change runs in one transaction that locks the parent row, so a refused change leaves the
 * grid exactly as it was and concurrent changes cannot break the limits.
 */
import { and, asc, eq, ilike, inArray, or, sql } from "drizzle-orm";
import { AppError, type Db, type EventBus } from "../../../kernel/mod.ts";
import { isConnected } from "../cells/cells_setup.ts";
import {
  cellIoModules,
  cellMappings,
  cells,
  ELECTRICAL_WORK_TYPES,
  type ElectricalWorkType,
  feeders,
  lvGroups,
  mvFeederGroups,
  mvTopologySections,
  nodes,
  stationGroups,
} from "../schema.ts";
import {
  coordinateIssues,
  estimatesMv,
  type FeederInput,
  feederIssues,
  feederParameters,
  GRID_NAME,
  hasThreePhaseMapping,
  type Issue,
  MAX_FEEDERS,
  nameIssue,
  NEW_NODE_NAME,
} from "./validation.ts";

/** A transaction of the relational database. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
type Executor = Db | Tx;

type FeederRow = typeof feeders.$inferSelect;

const newId = () => crypto.randomUUID();

function refuse(issues: Issue[]): void {
  if (issues.length) throw new AppError("common.validation", { issues });
}

/** Refuses a grid item's name that breaks the name rules. */
function refuseName(name: unknown): void {
  const issue = nameIssue("name", name);
  refuse(issue ? [issue] : []);
}

function notFound(): never {
  throw new AppError("grid.elementNotFound");
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Record<string, unknown>
    : {};
}

const optionalNumber = (value: unknown) => (value === undefined || value === "" ? null : value);

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

/** Node input of the setup calls. */
export interface NodeInput {
  lv_group_id?: unknown;
  name?: unknown;
  electrical_work?: unknown;
  latitude?: unknown;
  longitude?: unknown;
  electrical_distance?: unknown;
  upstream_node_id?: unknown;
  feeders?: unknown;
}

/** A feeder as the setup calls answer it. */
export interface SetupFeederDto {
  id: string;
  slot: number;
  name: string;
  type: FeederInput["type"];
  in_out: "IN" | "OUT";
  nominal_current_a: number;
  parameters: Record<string, unknown>;
}

/** The metering status of one electrical work (GET /gsm/electrical-works/status). */
export interface ElectricalWorkStatus {
  node_id: string;
  node_name: string;
  key: string;
  name: string;
  type: ElectricalWorkType;
  latitude: number;
  longitude: number;
  station_group: { id: string; name: string };
  mv_feeder_group: { id: string; name: string };
  lv_group: { id: string; name: string };
  feeder_count: number;
  state: MeteringState;
  last_data_at: string | null;
  cell: {
    id: string;
    serial_number: string;
    status: string;
    gps_fix: string | null;
    gsm_signal: string | null;
  } | null;
}

/** Metering states, worst first. */
export const METERING_STATES = ["DISCONNECTED", "NO_CELL", "UNMEASURED", "CONNECTED"] as const;
export type MeteringState = (typeof METERING_STATES)[number];

/** One electrical-work search result. */
export interface ElectricalWorkHit {
  node_id: string;
  node_name: string;
  key: string;
  name: string;
  type: ElectricalWorkType;
  latitude: number;
  longitude: number;
  lv_group: { id: string; name: string };
  mv_feeder_group: { id: string; name: string };
  station_group: { id: string; name: string };
}

/** Search: at least 3 characters, at most 10 results (spec 9). */
export const SEARCH_MIN_CHARS = 3;
export const SEARCH_LIMIT = 10;

function feederDto(f: FeederRow): SetupFeederDto {
  return {
    id: f.id,
    slot: f.slot,
    name: f.name,
    type: f.type,
    in_out: f.direction,
    nominal_current_a: f.nominalCurrentA,
    parameters: f.parameters,
  };
}

/** Create, update and delete of the grid structure of a customer. */
export class GridSetupService {
  constructor(private readonly db: Db, private readonly bus?: EventBus) {}

  // --- ownership (a foreign or unknown id answers "This element of the grid was not found!")

  async #station(tx: Executor, customerKey: string, id: string, lock = false) {
    const query = tx.select().from(stationGroups).where(
      and(eq(stationGroups.id, id), eq(stationGroups.customerKey, customerKey)),
    );
    const [row] = lock ? await query.for("update") : await query;
    return row ?? notFound();
  }

  async #mv(tx: Executor, customerKey: string, id: string, lock = false) {
    const query = tx.select({ mv: mvFeederGroups }).from(mvFeederGroups)
      .innerJoin(stationGroups, eq(stationGroups.id, mvFeederGroups.stationGroupId))
      .where(and(eq(mvFeederGroups.id, id), eq(stationGroups.customerKey, customerKey)));
    const [row] = lock ? await query.for("update") : await query;
    return row?.mv ?? notFound();
  }

  async #lv(tx: Executor, customerKey: string, id: string, lock = false) {
    const query = tx.select({ lv: lvGroups }).from(lvGroups)
      .innerJoin(mvFeederGroups, eq(mvFeederGroups.id, lvGroups.mvFeederGroupId))
      .innerJoin(stationGroups, eq(stationGroups.id, mvFeederGroups.stationGroupId))
      .where(and(eq(lvGroups.id, id), eq(stationGroups.customerKey, customerKey)));
    const [row] = lock ? await query.for("update") : await query;
    return row?.lv ?? notFound();
  }

  async #node(tx: Executor, customerKey: string, id: string, lock = false) {
    const query = tx.select({ node: nodes }).from(nodes)
      .innerJoin(lvGroups, eq(lvGroups.id, nodes.lvGroupId))
      .innerJoin(mvFeederGroups, eq(mvFeederGroups.id, lvGroups.mvFeederGroupId))
      .innerJoin(stationGroups, eq(stationGroups.id, mvFeederGroups.stationGroupId))
      .where(and(eq(nodes.id, id), eq(stationGroups.customerKey, customerKey)));
    const [row] = lock ? await query.for("update") : await query;
    return row?.node ?? notFound();
  }

  // --- station groups

  async createStationGroup(customerKey: string, input: Record<string, unknown>) {
    const issues = [
      ...[nameIssue("name", input.name)].filter((i): i is Issue => i !== null),
      ...coordinateIssues(
        "",
        optionalNumber(input.latitude),
        optionalNumber(input.longitude),
        false,
      ),
    ];
    refuse(issues);
    const row = {
      id: newId(),
      customerKey,
      name: String(input.name).trim(),
      latitude: optionalNumber(input.latitude) as number | null,
      longitude: optionalNumber(input.longitude) as number | null,
    };
    await this.db.insert(stationGroups).values(row);
    return { id: row.id, name: row.name, latitude: row.latitude, longitude: row.longitude };
  }

  async updateStationGroup(customerKey: string, id: string, input: Record<string, unknown>) {
    refuse([
      ...[nameIssue("name", input.name)].filter((i): i is Issue => i !== null),
      ...coordinateIssues(
        "",
        optionalNumber(input.latitude),
        optionalNumber(input.longitude),
        false,
      ),
    ]);
    return await this.db.transaction(async (tx) => {
      await this.#station(tx, customerKey, id, true);
      const values = {
        name: String(input.name).trim(),
        latitude: optionalNumber(input.latitude) as number | null,
        longitude: optionalNumber(input.longitude) as number | null,
      };
      await tx.update(stationGroups).set(values).where(eq(stationGroups.id, id));
      return { id, ...values };
    });
  }

  /** Refused while the station has MV feeder groups (spec 5). */
  async deleteStationGroup(customerKey: string, id: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await this.#station(tx, customerKey, id, true);
      const children = await tx.select({ id: mvFeederGroups.id }).from(mvFeederGroups)
        .where(eq(mvFeederGroups.stationGroupId, id)).limit(1);
      if (children.length) throw new AppError("validation.deleteStationHasMvFeeders");
      await tx.delete(stationGroups).where(eq(stationGroups.id, id));
    });
  }

  // --- MV feeder groups

  async createMvFeederGroup(customerKey: string, input: Record<string, unknown>) {
    refuseName(input.name);
    const parent = typeof input.station_group_id === "string" ? input.station_group_id : "";
    return await this.db.transaction(async (tx) => {
      await this.#station(tx, customerKey, parent, true);
      const row = { id: newId(), stationGroupId: parent, name: String(input.name).trim() };
      await tx.insert(mvFeederGroups).values(row);
      return { id: row.id, station_group_id: parent, name: row.name };
    });
  }

  async updateMvFeederGroup(customerKey: string, id: string, input: Record<string, unknown>) {
    refuseName(input.name);
    return await this.db.transaction(async (tx) => {
      const mv = await this.#mv(tx, customerKey, id, true);
      const name = String(input.name).trim();
      await tx.update(mvFeederGroups).set({ name }).where(eq(mvFeederGroups.id, id));
      return { id, station_group_id: mv.stationGroupId, name };
    });
  }

  /** Refused while the MV feeder group has LV groups (spec 5). */
  async deleteMvFeederGroup(customerKey: string, id: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await this.#mv(tx, customerKey, id, true);
      const children = await tx.select({ id: lvGroups.id }).from(lvGroups)
        .where(eq(lvGroups.mvFeederGroupId, id)).limit(1);
      if (children.length) throw new AppError("validation.deleteMvFeederHasLvGrids");
      await tx.delete(mvTopologySections).where(eq(mvTopologySections.mvFeederGroupId, id));
      await tx.delete(mvFeederGroups).where(eq(mvFeederGroups.id, id));
    });
  }

  // --- LV groups

  async createLvGroup(customerKey: string, input: Record<string, unknown>) {
    refuseName(input.name);
    const parent = typeof input.mv_feeder_group_id === "string" ? input.mv_feeder_group_id : "";
    return await this.db.transaction(async (tx) => {
      await this.#mv(tx, customerKey, parent, true);
      const row = { id: newId(), mvFeederGroupId: parent, name: String(input.name).trim() };
      await tx.insert(lvGroups).values(row);
      return { id: row.id, mv_feeder_group_id: parent, name: row.name };
    });
  }

  async updateLvGroup(customerKey: string, id: string, input: Record<string, unknown>) {
    refuseName(input.name);
    return await this.db.transaction(async (tx) => {
      const lv = await this.#lv(tx, customerKey, id, true);
      const name = String(input.name).trim();
      await tx.update(lvGroups).set({ name }).where(eq(lvGroups.id, id));
      return { id, mv_feeder_group_id: lv.mvFeederGroupId, name };
    });
  }

  /** Refused while the LV group has nodes (spec 5). */
  async deleteLvGroup(customerKey: string, id: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await this.#lv(tx, customerKey, id, true);
      const children = await tx.select({ id: nodes.id }).from(nodes)
        .where(eq(nodes.lvGroupId, id)).limit(1);
      if (children.length) throw new AppError("validation.deleteLvGridHasNodes");
      await tx.delete(lvGroups).where(eq(lvGroups.id, id));
    });
  }

  // --- nodes

  #nodeIssues(input: NodeInput, nameLimits: { min: number; max: number }): Issue[] {
    const issues: Issue[] = [];
    const ew = record(input.electrical_work);
    const push = (issue: Issue | null) => issue && issues.push(issue);
    push(nameIssue("name", input.name, nameLimits));
    push(nameIssue("electrical_work.name", ew.name, GRID_NAME));
    if (!ELECTRICAL_WORK_TYPES.includes(ew.type as ElectricalWorkType)) {
      issues.push({ path: "electrical_work.type", key: "validation.required" });
    }
    issues.push(...coordinateIssues("", input.latitude, input.longitude, true));
    const distance = input.electrical_distance;
    if (
      distance !== undefined && distance !== null &&
      (typeof distance !== "number" || !Number.isFinite(distance) || distance < 0)
    ) {
      issues.push({ path: "electrical_distance", key: "validation.onlyNumbers" });
    }
    if (
      input.upstream_node_id !== undefined && input.upstream_node_id !== null &&
      typeof input.upstream_node_id !== "string"
    ) {
      issues.push({ path: "upstream_node_id", key: "validation.required" });
    }
    return issues;
  }

  async #checkUpstream(tx: Tx, lvGroupId: string, upstream: unknown, self?: string) {
    if (typeof upstream !== "string" || !upstream) return null;
    const [row] = await tx.select({ id: nodes.id, lvGroupId: nodes.lvGroupId }).from(nodes)
      .where(eq(nodes.id, upstream));
    if (!row || row.lvGroupId !== lvGroupId || row.id === self) {
      throw new AppError("common.validation", {
        issues: [{ path: "upstream_node_id", key: "grid.elementNotFound" }],
      });
    }
    return row.id;
  }

  /** Creates a node with its electrical work and 1 to 6 feeders. New node names have 3-20 characters. */
  async createNode(customerKey: string, input: NodeInput) {
    const issues = this.#nodeIssues(input, NEW_NODE_NAME);
    const list = Array.isArray(input.feeders) ? input.feeders : [];
    if (!list.length) issues.push({ path: "feeders", key: "validation.required" });
    list.forEach((f, i) => issues.push(...feederIssues(`feeders.${i}.`, record(f))));
    refuse(issues);
    if (list.length > MAX_FEEDERS) throw new AppError("setup.maxFeeders", { max: MAX_FEEDERS });
    const lvGroupId = typeof input.lv_group_id === "string" ? input.lv_group_id : "";
    const created = await this.db.transaction(async (tx) => {
      await this.#lv(tx, customerKey, lvGroupId, true);
      const upstream = await this.#checkUpstream(tx, lvGroupId, input.upstream_node_id);
      const nodeId = newId();
      const after = list.map((f, i) =>
        toFeederRow(nodeId, i + 1, record(f) as unknown as FeederInput)
      );
      await checkNodeFeeders(tx, nodeId, [], after);
      const ew = record(input.electrical_work);
      await tx.insert(nodes).values({
        id: nodeId,
        lvGroupId,
        name: String(input.name).trim(),
        electricalWorkKey: newId(),
        electricalWorkName: String(ew.name).trim(),
        electricalWorkType: ew.type as ElectricalWorkType,
        latitude: input.latitude as number,
        longitude: input.longitude as number,
        electricalDistance: (input.electrical_distance as number | undefined) ?? 0,
        upstreamNodeId: upstream,
      });
      await tx.insert(feeders).values(after);
      return nodeId;
    });
    return await this.node(customerKey, created);
  }

  /** A node with its feeders, as the setup calls answer it. */
  async node(customerKey: string, id: string) {
    const node = await this.#node(this.db, customerKey, id);
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
  async updateNode(customerKey: string, id: string, input: NodeInput) {
    await this.db.transaction(async (tx) => {
      const node = await this.#node(tx, customerKey, id, true);
      const renamed = typeof input.name !== "string" || input.name.trim() !== node.name;
      refuse(this.#nodeIssues(input, renamed ? NEW_NODE_NAME : GRID_NAME));
      const upstream = await this.#checkUpstream(tx, node.lvGroupId, input.upstream_node_id, id);
      const ew = record(input.electrical_work);
      await tx.update(nodes).set({
        name: String(input.name).trim(),
        electricalWorkName: String(ew.name).trim(),
        electricalWorkType: ew.type as ElectricalWorkType,
        latitude: input.latitude as number,
        longitude: input.longitude as number,
        electricalDistance: (input.electrical_distance as number | undefined) ??
          node.electricalDistance,
        upstreamNodeId: upstream,
      }).where(eq(nodes.id, id));
    });
    return await this.node(customerKey, id);
  }

  /**
   * Deletes a node with its feeders (refused with 358 while a feeder is part of an MV
   * topology); its cells go back to 'waiting for configuration' in the same transaction.
   */
  async deleteNode(customerKey: string, id: string): Promise<{ cellIds: string[] }> {
    const cellIds = await this.db.transaction(async (tx) => {
      const node = await this.#node(tx, customerKey, id, true);
      const own = await tx.select({ id: feeders.id }).from(feeders).where(eq(feeders.nodeId, id));
      if (own.length) {
        const inTopology = await tx.select().from(mvTopologySections)
          .where(inArray(mvTopologySections.feederId, own.map((f) => f.id))).limit(1);
        if (inTopology.length) throw new AppError(358);
      }
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

  // --- feeders

  /** Adds a feeder in the lowest free slot (at most 6 per node). */
  async addFeeder(customerKey: string, nodeId: string, input: Record<string, unknown>) {
    return await this.db.transaction(async (tx) => {
      await this.#node(tx, customerKey, nodeId, true);
      refuse(feederIssues("", input));
      const before = await tx.select().from(feeders).where(eq(feeders.nodeId, nodeId));
      if (before.length >= MAX_FEEDERS) {
        throw new AppError("setup.maxFeeders", { max: MAX_FEEDERS });
      }
      const used = new Set(before.map((f) => f.slot));
      const slot = [1, 2, 3, 4, 5, 6].find((s) => !used.has(s))!;
      const row = toFeederRow(nodeId, slot, input as unknown as FeederInput);
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
    input: Record<string, unknown>,
  ) {
    return await this.db.transaction(async (tx) => {
      await this.#node(tx, customerKey, nodeId, true);
      const before = await tx.select().from(feeders).where(eq(feeders.nodeId, nodeId));
      const current = before.find((f) => f.id === feederId) ?? notFound();
      refuse(feederIssues("", input));
      const next = {
        ...toFeederRow(nodeId, current.slot, input as unknown as FeederInput),
        id: feederId,
      };
      const [section] = await tx.select().from(mvTopologySections)
        .where(eq(mvTopologySections.feederId, feederId));
      if (section && !isMvCapable(next)) throw new AppError(356);
      const result = await checkNodeFeeders(
        tx,
        nodeId,
        before,
        before.map((f) => (f.id === feederId ? next : f)),
      );
      await tx.update(feeders).set({
        name: next.name,
        type: next.type,
        direction: next.direction,
        nominalCurrentA: next.nominalCurrentA,
        parameters: next.parameters,
      }).where(eq(feeders.id, feederId));
      return { feeder: feederDto(next), ...result };
    });
  }

  /**
   * Deletes a feeder. Refused for the last feeder of a node, for a transformer with MV
   * estimation while MV lines exist (303) and for an MV feeder in a topology (356).
   */
  async deleteFeeder(customerKey: string, nodeId: string, feederId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await this.#node(tx, customerKey, nodeId, true);
      const before = await tx.select().from(feeders).where(eq(feeders.nodeId, nodeId));
      const current = before.find((f) => f.id === feederId) ?? notFound();
      if (before.length === 1) throw new AppError("validation.deleteLastFeeder");
      const [section] = await tx.select().from(mvTopologySections)
        .where(eq(mvTopologySections.feederId, feederId));
      if (section) throw new AppError(356);
      const after = before.filter((f) => f.id !== feederId);
      if (
        estimatesMv(current) && after.some((f) => f.type === "MV_LINE") && !after.some(estimatesMv)
      ) {
        throw new AppError(303);
      }
      await checkNodeFeeders(tx, nodeId, before, after);
      await tx.delete(feeders).where(eq(feeders.id, feederId));
    });
  }

  // --- MV topology of an MV feeder group

  /** The ordered MV feeders of the group's topology; 351 when it has fewer than two sections. */
  async mvTopology(customerKey: string, mvFeederGroupId: string) {
    await this.#mv(this.db, customerKey, mvFeederGroupId);
    const rows = await this.db.select({ section: mvTopologySections, feeder: feeders, node: nodes })
      .from(mvTopologySections)
      .innerJoin(feeders, eq(feeders.id, mvTopologySections.feederId))
      .innerJoin(nodes, eq(nodes.id, feeders.nodeId))
      .where(eq(mvTopologySections.mvFeederGroupId, mvFeederGroupId))
      .orderBy(asc(mvTopologySections.position));
    if (rows.length < 2) throw new AppError(351);
    return {
      mv_feeder_group_id: mvFeederGroupId,
      sections: rows.map((r) => ({
        position: r.section.position,
        feeder: feederDto(r.feeder),
        node: { id: r.node.id, name: r.node.name },
      })),
    };
  }

  /** Replaces the topology: at least two distinct MV feeders of nodes below the group. */
  async setMvTopology(
    customerKey: string,
    mvFeederGroupId: string,
    input: Record<string, unknown>,
  ) {
    const ids = Array.isArray(input.feeder_ids) ? input.feeder_ids : [];
    const distinct = new Set(ids);
    if (
      ids.length < 2 || distinct.size !== ids.length || !ids.every((i) => typeof i === "string")
    ) {
      refuse([{ path: "feeder_ids", key: "validation.required" }]);
    }
    await this.db.transaction(async (tx) => {
      await this.#mv(tx, customerKey, mvFeederGroupId, true);
      const rows = await tx.select({ feeder: feeders }).from(feeders)
        .innerJoin(nodes, eq(nodes.id, feeders.nodeId))
        .innerJoin(lvGroups, eq(lvGroups.id, nodes.lvGroupId))
        .where(
          and(eq(lvGroups.mvFeederGroupId, mvFeederGroupId), inArray(feeders.id, ids as string[])),
        );
      const found = new Map(rows.map((r) => [r.feeder.id, r.feeder]));
      const issues = (ids as string[]).flatMap((feederId, i): Issue[] => {
        const feeder = found.get(feederId);
        if (!feeder) return [{ path: `feeder_ids.${i}`, key: "grid.elementNotFound" }];
        return isMvCapable(feeder)
          ? []
          : [{ path: `feeder_ids.${i}`, key: "setup.mvTransformerRequired" }];
      });
      refuse(issues);
      await tx.delete(mvTopologySections).where(
        eq(mvTopologySections.mvFeederGroupId, mvFeederGroupId),
      );
      await tx.insert(mvTopologySections).values(
        (ids as string[]).map((feederId, i) => ({ mvFeederGroupId, position: i + 1, feederId })),
      );
    });
    return await this.mvTopology(customerKey, mvFeederGroupId);
  }

  async clearMvTopology(customerKey: string, mvFeederGroupId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await this.#mv(tx, customerKey, mvFeederGroupId, true);
      await tx.delete(mvTopologySections).where(
        eq(mvTopologySections.mvFeederGroupId, mvFeederGroupId),
      );
    });
  }

  // --- reads

  /** The metering status of every electrical work of a customer, with counts per state. */
  async electricalWorksStatus(customerKey: string, now = Date.now()) {
    const rows = await this.#works(customerKey);
    const cellRows = await this.db.select().from(cells).where(
      and(eq(cells.customerKey, customerKey), eq(cells.type, "INSTALLED")),
    );
    const cellOf = new Map(cellRows.filter((c) => c.nodeId).map((c) => [c.nodeId!, c]));
    const feederCounts = new Map<string, number>();
    if (rows.length) {
      const feederRows = await this.db.select({ nodeId: feeders.nodeId }).from(feeders)
        .where(inArray(feeders.nodeId, rows.map((r) => r.node.id)));
      for (const f of feederRows) feederCounts.set(f.nodeId, (feederCounts.get(f.nodeId) ?? 0) + 1);
    }
    const counts = Object.fromEntries(METERING_STATES.map((s) => [s, 0])) as Record<
      MeteringState,
      number
    >;
    const works: ElectricalWorkStatus[] = rows.map((r) => {
      const cell = cellOf.get(r.node.id);
      const state: MeteringState = !cell
        ? r.node.electricalWorkType === "MV_CABINET" ? "UNMEASURED" : "NO_CELL"
        : !cell.revoked && isConnected(cell.lastSeen ?? null, now)
        ? "CONNECTED"
        : "DISCONNECTED";
      counts[state]++;
      return {
        ...workHit(r),
        feeder_count: feederCounts.get(r.node.id) ?? 0,
        state,
        last_data_at: cell?.lastSeen?.toISOString() ?? null,
        cell: cell
          ? {
            id: cell.id,
            serial_number: cell.serialNumber,
            status: cell.status,
            gps_fix: cell.gpsFix,
            gsm_signal: cell.gsmSignal,
          }
          : null,
      };
    });
    return { electrical_works: works, counts, generated_at: new Date(now).toISOString() };
  }

  /** Electrical works whose name or node name contains `q` (at least 3 characters, 10 results). */
  async searchElectricalWorks(customerKey: string, q: string): Promise<ElectricalWorkHit[]> {
    const term = q.trim();
    if (term.length < SEARCH_MIN_CHARS) {
      refuse([{ path: "q", key: "validation.atLeast3Chars" }]);
    }
    const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const rows = await this.#works(
      customerKey,
      or(ilike(nodes.electricalWorkName, pattern), ilike(nodes.name, pattern)),
      SEARCH_LIMIT,
    );
    return rows.map(workHit);
  }

  #works(customerKey: string, filter?: ReturnType<typeof or>, limit?: number) {
    const query = this.db.select({
      node: nodes,
      lv: { id: lvGroups.id, name: lvGroups.name },
      mv: { id: mvFeederGroups.id, name: mvFeederGroups.name },
      station: { id: stationGroups.id, name: stationGroups.name },
    }).from(nodes)
      .innerJoin(lvGroups, eq(lvGroups.id, nodes.lvGroupId))
      .innerJoin(mvFeederGroups, eq(mvFeederGroups.id, lvGroups.mvFeederGroupId))
      .innerJoin(stationGroups, eq(stationGroups.id, mvFeederGroups.stationGroupId))
      .where(
        filter
          ? and(eq(stationGroups.customerKey, customerKey), filter)
          : eq(stationGroups.customerKey, customerKey),
      )
      .orderBy(asc(nodes.electricalWorkName), asc(nodes.id));
    return limit ? query.limit(limit) : query;
  }
}

type WorkRow = {
  node: typeof nodes.$inferSelect;
  lv: { id: string; name: string };
  mv: { id: string; name: string };
  station: { id: string; name: string };
};

function workHit(r: WorkRow): ElectricalWorkHit {
  return {
    node_id: r.node.id,
    node_name: r.node.name,
    key: r.node.electricalWorkKey,
    name: r.node.electricalWorkName,
    type: r.node.electricalWorkType,
    latitude: r.node.latitude,
    longitude: r.node.longitude,
    lv_group: r.lv,
    mv_feeder_group: r.mv,
    station_group: r.station,
  };
}

function toFeederRow(nodeId: string, slot: number, input: FeederInput): FeederRow {
  return {
    id: newId(),
    nodeId,
    slot,
    name: input.name.trim(),
    type: input.type,
    direction: input.in_out,
    nominalCurrentA: input.nominal_current_a,
    parameters: feederParameters(input.type, record(input.parameters)),
  };
}

/** MV feeders: MV lines and transformers with MV voltage estimation. */
function isMvCapable(f: { type: string; parameters: Record<string, unknown> }): boolean {
  return f.type === "MV_LINE" || estimatesMv(f);
}

/**
 * The MV rules of the feeders of one node, before and after a change (spec 5 and 8.2):
 * at most 6 feeders; one transformer with MV estimation (307); MV estimation is enabled only
 * with L1, L2 and L3 mapped on the node's cell (308); MV lines need a transformer with MV
 * estimation (309), which cannot be disabled while an MV line exists (313).
 * Returns whether the node's mapping must be validated again (MV estimation changed).
 */
export async function checkNodeFeeders(
  tx: Executor,
  nodeId: string,
  before: readonly Pick<FeederRow, "id" | "slot" | "type" | "parameters">[],
  after: readonly Pick<FeederRow, "id" | "slot" | "type" | "parameters">[],
): Promise<{ mapping_revalidation_required: boolean }> {
  if (after.length > MAX_FEEDERS) throw new AppError("setup.maxFeeders", { max: MAX_FEEDERS });
  const estimators = after.filter(estimatesMv);
  if (estimators.length > 1) throw new AppError(307);
  const wasEstimating = new Set(before.filter(estimatesMv).map((f) => f.id));
  const isEstimating = new Set(estimators.map((f) => f.id));
  if (after.some((f) => f.type === "MV_LINE") && !estimators.length) {
    const disabled = after.some((f) => wasEstimating.has(f.id) && !isEstimating.has(f.id));
    throw new AppError(disabled ? 313 : 309);
  }
  const enabled = estimators.filter((f) => !wasEstimating.has(f.id));
  if (enabled.length) {
    const mapped = await tx.select({ feederId: cellMappings.feederId, phase: cellMappings.phase })
      .from(cellMappings).innerJoin(cells, eq(cells.id, cellMappings.cellId))
      .where(
        and(eq(cells.nodeId, nodeId), inArray(cellMappings.feederId, enabled.map((f) => f.id))),
      );
    for (const feeder of enabled) {
      const phases = mapped.filter((m) => m.feederId === feeder.id).map((m) => m.phase);
      if (!hasThreePhaseMapping(phases)) throw new AppError(308);
    }
  }
  const changed = enabled.length > 0 || [...wasEstimating].some((id) => !isEstimating.has(id));
  if (changed) {
    // Spec 4: changing MV estimation requires validating the node's mapping again.
    await tx.update(cells).set({ status: "UNDER_VALIDATION", validation: null })
      .where(eq(cells.nodeId, nodeId));
  }
  return { mapping_revalidation_required: changed };
}

/**
 * For the line-mapping calls: a new mapping of a node's cell must keep L1, L2 and L3 mapped on
 * every transformer feeder with MV estimation, else 111.
 */
export async function assertMvEstimationMapping(
  tx: Executor,
  nodeId: string,
  entries: readonly { feeder_id: string; phase: string }[],
): Promise<void> {
  const rows = await tx.select().from(feeders).where(eq(feeders.nodeId, nodeId));
  for (const feeder of rows.filter(estimatesMv)) {
    const phases = entries.filter((e) => e.feeder_id === feeder.id).map((e) => e.phase);
    if (!hasThreePhaseMapping(phases)) throw new AppError(111, { feeder: feeder.name });
  }
}
