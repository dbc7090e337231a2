/**
 * Cells in the infrastructure setup (spec 3 "Cell", 4 "Cell statuses", 5, 8.2 301/310, 9):
 * the three lists (in stock, waiting for installation, in the field), search, status and display
 * labels, the custom message, taking a cell from stock, linking it to a node and unlinking it.
 *
 * Life cycle of `cells.status` (the display label comes from STATUS_LABELS):
 *   IN_STOCK: READY_FOR_CONFIGURATION
 *   -> take from stock -> WAITING_FOR_INSTALLATION: FIELD_INSTALLATION, FIRST_CONNECTION once the
 *      cell has contacted the platform
 *   -> link -> INSTALLED: NOT_COMPLETED (no mapping) -> NOT_SYNCHRONIZED (mapping saved, not yet
 *      applied by the cell) -> UNDER_VALIDATION (applied) -> VALIDATED (mapping not valid)
 *      -> CONFIRMED (correct, confirmed) or SKIPPED (ignored)
 *   -> unlink -> WAITING_FOR_INSTALLATION again.
 * Cells installed before this life cycle (status CONNECTED) count as configured.
 */
import { and, asc, count, eq, ilike, inArray, or, sql } from "drizzle-orm";
import { AppError, type Db, type EventBus } from "../../../kernel/mod.ts";
import {
  type CellCategory,
  type CellPage,
  type LinkableNodeDto,
  MAPPING_STATUS_LABELS,
  type MappingStatus,
  type SetupCellDto,
} from "../contract.ts";
import type {} from "../events.ts";
import {
  cellIoModules,
  cellMappings,
  cells,
  type ElectricalWorkType,
  lvGroups,
  mvFeederGroups,
  nodes,
  stationGroups,
} from "../schema.ts";

/** Spec 9: cell lists show 10 per page; a search returns at most 10 cells. */
export const CELL_PAGE_SIZE = 10;
export const CELL_SEARCH_LIMIT = 10;
/** A cell that sent nothing (data, configuration poll) for this long is disconnected (301). */
export const CONNECTION_TIMEOUT_MS = 10 * 60_000;

/**
 * Status code -> display label key (spec 4), the one place of this mapping: the API sends both,
 * the web translates `cells:status.<label>`.
 */
export const STATUS_LABELS: Readonly<Record<string, string>> = {
  READY_FOR_CONFIGURATION: "waitingForInstallation",
  FIELD_INSTALLATION: "waitingForInstallation",
  FIRST_CONNECTION: "waitingForInstallation",
  CONNECTED: "connected",
  DISCONNECTED: "disconnected",
  UNDER_VALIDATION: "underValidation",
  VALIDATED: "mappingNotValid",
  NOT_COMPLETED: "notCompleted",
  NOT_SYNCHRONIZED: "notSynchronized",
  SKIPPED: "failedOrSkipped",
  CONFIRMED: "configured",
  // Grid-related states: the node or its feeders changed under the cell.
  NODE_DELETED: "issue",
  FEEDER_CHANGED: "issue",
};

/**
 * Which electrical works a cell can measure (spec 3, 5): every measured type; the unmeasured
 * MV cabinet cannot take a cell.
 */
export const NODE_COMPATIBILITY: Readonly<Record<ElectricalWorkType, boolean>> = {
  MV_LV_STATION: true,
  LV_CABINET: true,
  LV_ACTUATOR: true,
  MV_CABINET: false,
};

export const GPS_FIX_STATES = ["GPS_FIX", "DGPS_FIX", "PPS_FIX", "NO_SIGNAL"] as const;
export const SIGNAL_QUALITIES = ["EXCELLENT", "GOOD", "FAIR", "POOR"] as const;

/** The label key of a status code: 'issue' for grid states, 'unknown' for anything else. */
export function statusLabel(status: string | null | undefined): string {
  return (status && STATUS_LABELS[status]) || "unknown";
}

/** Connected when the cell was heard from within CONNECTION_TIMEOUT_MS. */
export function isConnected(lastSeen: Date | null, now = Date.now()): boolean {
  return lastSeen !== null && now - lastSeen.getTime() <= CONNECTION_TIMEOUT_MS;
}

type CellRow = typeof cells.$inferSelect;
type NodeRow = Pick<typeof nodes.$inferSelect, "id" | "name" | "electricalWorkName"> & {
  type: ElectricalWorkType;
};

const CONFIGURED = new Set(["CONNECTED", "DISCONNECTED", "CONFIRMED", "SKIPPED"]);

/** The DTO of a cell row; `mapped` tells whether the cell has a mapping. */
export function toSetupCell(
  row: CellRow,
  node: NodeRow | null,
  mapped: boolean,
  now = Date.now(),
): SetupCellDto {
  const connection = isConnected(row.lastSeen, now) ? "CONNECTED" : "DISCONNECTED";
  const status = row.type === "INSTALLED" && CONFIGURED.has(row.status) && row.status !== "SKIPPED"
    ? connection
    : row.status;
  const mappingStatus: MappingStatus = !mapped
    ? "TO_BE_CONFIGURED"
    : CONFIGURED.has(row.status)
    ? "CONFIGURED"
    : "IN_PROGRESS";
  return {
    id: row.id,
    serial_number: row.serialNumber,
    type: row.type,
    status,
    status_label: statusLabel(status),
    connection,
    mapping_status: mappingStatus,
    mapping_status_label: MAPPING_STATUS_LABELS[mappingStatus],
    device_model: row.deviceModel,
    gps_fix: row.gpsFix,
    gsm_signal: row.gsmSignal,
    firmware: row.firmware,
    last_seen: row.lastSeen?.toISOString() ?? null,
    provisioning_date: row.provisioningDate.toISOString(),
    custom_message: row.customMessage,
    node: node
      ? {
        id: node.id,
        name: node.name,
        electrical_work_name: node.electricalWorkName,
        type: node.type,
      }
      : null,
    mapping_version: row.mappingVersion,
    mapping_acked_version: row.mappingAckedVersion,
    credential_state: row.revoked ? "REVOKED" : row.credentialHash ? "ACTIVE" : "NONE",
    credential_issued_at: row.credentialIssuedAt?.toISOString() ?? null,
  };
}

/** The cells screens of the infrastructure setup. */
export class CellsSetupService {
  constructor(
    private readonly db: Db,
    private readonly bus: EventBus,
    private readonly clock: () => number = Date.now,
    /** A linked or unlinked cell sends for its new node at once, not after a cache minute. */
    private readonly placementChanged: (cellId: string) => void = () => {},
  ) {}

  /** One page (1-based) of a category, ordered by serial number. */
  async list(customerKey: string, category: CellCategory, page: number): Promise<CellPage> {
    const where = and(eq(cells.customerKey, customerKey), eq(cells.type, category));
    const [total] = await this.db.select({ n: count() }).from(cells).where(where);
    const rows = await this.db.select().from(cells).where(where)
      .orderBy(asc(cells.serialNumber)).limit(CELL_PAGE_SIZE).offset((page - 1) * CELL_PAGE_SIZE);
    return {
      items: await this.#dtos(rows),
      total: Number(total?.n ?? 0),
      page,
      page_size: CELL_PAGE_SIZE,
    };
  }

  /** At most 10 cells whose id, serial number or node name contains `text`. */
  async search(customerKey: string, text: string): Promise<SetupCellDto[]> {
    const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const rows = await this.db.select({ cell: cells }).from(cells)
      .leftJoin(nodes, eq(nodes.id, cells.nodeId))
      .where(and(
        eq(cells.customerKey, customerKey),
        or(
          ilike(cells.serialNumber, pattern),
          ilike(cells.id, pattern),
          ilike(nodes.name, pattern),
        ),
      ))
      .orderBy(asc(cells.serialNumber)).limit(CELL_SEARCH_LIMIT);
    return await this.#dtos(rows.map((r) => r.cell));
  }

  /** One cell of the customer (404 otherwise). */
  async get(customerKey: string, cellId: string): Promise<SetupCellDto> {
    const [dto] = await this.#dtos([await this.row(customerKey, cellId)]);
    return dto!;
  }

  /** The cell row of the customer; a foreign or missing id is the same 404. */
  async row(customerKey: string, cellId: string, db: Db = this.db): Promise<CellRow> {
    const [row] = await db.select().from(cells)
      .where(and(eq(cells.id, cellId), eq(cells.customerKey, customerKey)));
    if (!row) throw new AppError("common.notFound");
    return row;
  }

  /** Sets (or clears with null) the custom message (checked by the contract's schema). */
  async setMessage(customerKey: string, cellId: string, message: string | null): Promise<void> {
    await this.row(customerKey, cellId);
    await this.db.update(cells).set({ customMessage: message }).where(eq(cells.id, cellId));
  }

  /** Moves a cell from stock to 'waiting for installation'. */
  async takeFromStock(customerKey: string, cellId: string): Promise<void> {
    const row = await this.row(customerKey, cellId);
    if (row.type !== "IN_STOCK") throw new AppError("setup.cellWrongState", { type: row.type });
    await this.db.update(cells).set({
      type: "WAITING_FOR_INSTALLATION",
      status: isConnected(row.lastSeen, this.clock()) ? "FIRST_CONNECTION" : "FIELD_INSTALLATION",
    }).where(eq(cells.id, cellId));
  }

  /** Nodes of the customer with their compatibility and current cell. */
  async linkableNodes(customerKey: string): Promise<LinkableNodeDto[]> {
    const rows = await this.db.select({
      id: nodes.id,
      name: nodes.name,
      ewName: nodes.electricalWorkName,
      type: nodes.electricalWorkType,
      lvGroup: lvGroups.name,
      cellId: cells.id,
    }).from(nodes)
      .innerJoin(lvGroups, eq(lvGroups.id, nodes.lvGroupId))
      .innerJoin(mvFeederGroups, eq(mvFeederGroups.id, lvGroups.mvFeederGroupId))
      .innerJoin(stationGroups, eq(stationGroups.id, mvFeederGroups.stationGroupId))
      .leftJoin(cells, eq(cells.nodeId, nodes.id))
      .where(eq(stationGroups.customerKey, customerKey))
      .orderBy(asc(nodes.name));
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      electrical_work_name: r.ewName,
      electrical_work_type: r.type,
      lv_group_name: r.lvGroup,
      compatible: NODE_COMPATIBILITY[r.type],
      cell_id: r.cellId,
    }));
  }

  /**
   * Links a waiting cell to a node: 310 when the node does not exist for the customer, 301 when
   * the cell is disconnected, refused for incompatible nodes and for nodes that have a cell.
   */
  async link(customerKey: string, cellId: string, nodeId: string): Promise<SetupCellDto> {
    await this.db.transaction(async (tx) => {
      const row = await this.row(customerKey, cellId, tx);
      if (row.type === "INSTALLED") throw new AppError("setup.cellWrongState", { type: row.type });
      const [node] = await tx.select({ type: nodes.electricalWorkType }).from(nodes)
        .innerJoin(lvGroups, eq(lvGroups.id, nodes.lvGroupId))
        .innerJoin(mvFeederGroups, eq(mvFeederGroups.id, lvGroups.mvFeederGroupId))
        .innerJoin(stationGroups, eq(stationGroups.id, mvFeederGroups.stationGroupId))
        .where(and(eq(nodes.id, nodeId), eq(stationGroups.customerKey, customerKey)));
      if (!node) throw new AppError(310);
      if (!NODE_COMPATIBILITY[node.type]) {
        throw new AppError("validation.incompatibleNodeType", { type: node.type });
      }
      if (!isConnected(row.lastSeen, this.clock())) throw new AppError(301);
      const [taken] = await tx.select({ id: cells.id }).from(cells).where(eq(cells.nodeId, nodeId));
      if (taken) throw new AppError("setup.nodeHasCell", { cell_id: taken.id });
      await tx.update(cells).set({
        type: "INSTALLED",
        status: "NOT_COMPLETED",
        nodeId,
        validation: null,
      }).where(eq(cells.id, cellId));
    });
    this.placementChanged(cellId);
    return await this.get(customerKey, cellId);
  }

  /** Unlinks an installed cell: back to 'waiting', mapping and I/O modules removed. */
  async unlink(customerKey: string, cellId: string): Promise<SetupCellDto> {
    await this.db.transaction(async (tx) => {
      const row = await this.row(customerKey, cellId, tx);
      if (!row.nodeId) throw new AppError(310);
      await tx.delete(cellMappings).where(eq(cellMappings.cellId, cellId));
      await tx.delete(cellIoModules).where(eq(cellIoModules.cellId, cellId));
      await tx.update(cells).set({
        type: "WAITING_FOR_INSTALLATION",
        status: isConnected(row.lastSeen, this.clock()) ? "FIRST_CONNECTION" : "FIELD_INSTALLATION",
        nodeId: null,
        validation: null,
        mappingVersion: sql`${cells.mappingVersion} + 1`,
      }).where(eq(cells.id, cellId));
    });
    this.placementChanged(cellId);
    await this.bus.publish("grid.cellsToConfigure", {
      customerKey,
      cellIds: [cellId],
      count: 1,
      reason: "UNLINKED",
    });
    return await this.get(customerKey, cellId);
  }

  async #dtos(rows: CellRow[]): Promise<SetupCellDto[]> {
    const nodeIds = [...new Set(rows.flatMap((r) => (r.nodeId ? [r.nodeId] : [])))];
    const cellIds = rows.map((r) => r.id);
    const nodeRows = nodeIds.length
      ? await this.db.select({
        id: nodes.id,
        name: nodes.name,
        electricalWorkName: nodes.electricalWorkName,
        type: nodes.electricalWorkType,
      }).from(nodes).where(inArray(nodes.id, nodeIds))
      : [];
    const mapped = cellIds.length
      ? new Set(
        (await this.db.selectDistinct({ id: cellMappings.cellId }).from(cellMappings)
          .where(inArray(cellMappings.cellId, cellIds))).map((r) => r.id),
      )
      : new Set<string>();
    const byId = new Map(nodeRows.map((n) => [n.id, n]));
    const now = this.clock();
    return rows.map((r) =>
      toSetupCell(r, r.nodeId ? byId.get(r.nodeId) ?? null : null, mapped.has(r.id), now)
    );
  }
}
