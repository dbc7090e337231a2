/**
 * The read side of the I/O configuration for IO monitoring: the customer's cells (linked to a
 * node) with their active I/O modules, in slot order (the slot is the protocol's module number).
 */
import { and, asc, eq, isNotNull } from "drizzle-orm";
import type { Db, EventBus } from "../../../kernel/mod.ts";
import { CellsSetupService } from "./cells_setup.ts";
import { IoModulesService, scaleOf } from "./io_modules.ts";
import type { IoScale } from "../contract.ts";
import {
  cellIoModules,
  cells,
  type ElectricalWorkType,
  ioModules,
  type IoModuleType,
  nodes,
} from "../schema.ts";

/** An active module of a cell. */
export interface ActiveIoModule {
  slot: number;
  module_id: string;
  name: string;
  module_type: IoModuleType;
  system_type: string;
  size: number;
  resolution: number;
  /** An analog input's measuring range, or null (the raw signal). */
  scale: IoScale | null;
}

/** A cell with active I/O modules and the node it measures. */
export interface IoCell {
  cell_id: string;
  customer_key: string;
  node_id: string;
  node_name: string;
  electrical_work: {
    key: string;
    name: string;
    type: ElectricalWorkType;
    latitude: number;
    longitude: number;
  };
  modules: ActiveIoModule[];
}

/** The cells of a customer (every customer when `customerKey` is null) with active modules. */
export async function activeIoCells(db: Db, customerKey: string | null): Promise<IoCell[]> {
  const rows = await db.select({
    cellId: cells.id,
    customerKey: cells.customerKey,
    node: nodes,
    slot: cellIoModules.slot,
    module: ioModules,
  }).from(cellIoModules)
    .innerJoin(cells, eq(cells.id, cellIoModules.cellId))
    .innerJoin(nodes, eq(nodes.id, cells.nodeId))
    .innerJoin(ioModules, eq(ioModules.id, cellIoModules.moduleId))
    .where(and(
      eq(cellIoModules.active, true),
      isNotNull(cells.nodeId),
      customerKey === null ? undefined : eq(cells.customerKey, customerKey),
    ))
    .orderBy(
      asc(nodes.electricalWorkName),
      asc(nodes.name),
      asc(cells.id),
      asc(cellIoModules.slot),
    );
  const byCell = new Map<string, IoCell>();
  for (const r of rows) {
    let cell = byCell.get(r.cellId);
    if (!cell) {
      cell = {
        cell_id: r.cellId,
        customer_key: r.customerKey,
        node_id: r.node.id,
        node_name: r.node.name,
        electrical_work: {
          key: r.node.electricalWorkKey,
          name: r.node.electricalWorkName,
          type: r.node.electricalWorkType,
          latitude: r.node.latitude,
          longitude: r.node.longitude,
        },
        modules: [],
      };
      byCell.set(r.cellId, cell);
    }
    cell.modules.push({
      slot: r.slot,
      module_id: r.module.id,
      name: r.module.name,
      module_type: r.module.moduleType,
      system_type: r.module.systemType,
      size: r.module.size,
      resolution: r.module.resolution,
      scale: scaleOf(r.module),
    });
  }
  return [...byCell.values()];
}

/** The I/O configuration service (module definitions, activation on cells) on its own. */
export function ioModulesService(db: Db, bus: EventBus): IoModulesService {
  return new IoModulesService(db, new CellsSetupService(db, bus));
}
