/**
 * I/O configuration (spec 3 "Module", 5): the customer's I/O module definitions (digital input,
 * digital output, analog input) and the modules activated on each cell.
 *
 * Rules: name 3-20 characters without : < > " / \ | ? * !; size and resolution required,
 * resolution -1..1; per cell at most IO_THRESHOLDS active modules of a type (and 8 in all, the
 * protocol's module numbers); one resolution for all active analog inputs of a cell (adding an
 * analog input with another resolution deactivates the earlier ones, and the answer says so);
 * not for DTVI devices nor unmetered nodes; a module in use by a cell cannot be deleted. An
 * analog input may carry a measuring range (contract `ioScaleInput`), changeable later.
 */
import { and, asc, eq } from "drizzle-orm";
import { AppError, type Db, validationError } from "../../../kernel/mod.ts";
import {
  type CellIoDto,
  IO_THRESHOLDS,
  type IoModuleDto,
  type IoModuleInput,
  type IoScale,
} from "../contract.ts";
import { cellIoModules, cells, ioModules, nodes } from "../schema.ts";
import { type CellsSetupService, NODE_COMPATIBILITY } from "./cells_setup.ts";

export { IO_THRESHOLDS };
/** What the form sends (and the demo seed creates). */
export type NewIoModule = IoModuleInput;

const MAX_SLOTS = 8;

/** The stored columns of a measuring range. */
function scaleColumns(scale: IoScale | null | undefined) {
  return scale
    ? { rangeMin: scale.min, rangeMax: scale.max, rangeUnit: scale.unit }
    : { rangeMin: null, rangeMax: null, rangeUnit: null };
}

/** The measuring range of a stored module, or null. */
export function scaleOf(
  m: { rangeMin: number | null; rangeMax: number | null; rangeUnit: string | null },
): IoScale | null {
  return m.rangeMin !== null && m.rangeMax !== null && m.rangeUnit !== null
    ? { min: m.rangeMin, max: m.rangeMax, unit: m.rangeUnit }
    : null;
}

type ModuleRow = typeof ioModules.$inferSelect;
const dto = (m: ModuleRow, usedBy: number): IoModuleDto => ({
  id: m.id,
  name: m.name,
  module_type: m.moduleType,
  system_type: m.systemType,
  size: m.size,
  resolution: m.resolution,
  scale: scaleOf(m),
  used_by: usedBy,
});

/** Module definitions and their activation on cells. */
export class IoModulesService {
  constructor(private readonly db: Db, private readonly setup: CellsSetupService) {}

  async list(customerKey: string): Promise<IoModuleDto[]> {
    const rows = await this.db.select().from(ioModules)
      .where(eq(ioModules.customerKey, customerKey)).orderBy(asc(ioModules.name));
    const uses = await this.db.select({ moduleId: cellIoModules.moduleId }).from(cellIoModules)
      .innerJoin(cells, eq(cells.id, cellIoModules.cellId))
      .where(eq(cells.customerKey, customerKey));
    return rows.map((m) => dto(m, uses.filter((u) => u.moduleId === m.id).length));
  }

  /** Creates a definition (checked by the contract's schema); names are unique per customer. */
  async create(customerKey: string, input: NewIoModule): Promise<IoModuleDto> {
    const name = input.name;
    const [clash] = await this.db.select({ id: ioModules.id }).from(ioModules)
      .where(and(eq(ioModules.customerKey, customerKey), eq(ioModules.name, name)));
    if (clash) throw new AppError("common.conflict", { field: "name" });
    const [row] = await this.db.insert(ioModules).values({
      id: crypto.randomUUID(),
      customerKey,
      name,
      moduleType: input.module_type,
      systemType: input.system_type,
      size: input.size,
      resolution: input.resolution,
      ...scaleColumns(input.scale),
    }).returning();
    return dto(row!, 0);
  }

  /** Sets or removes (null) the measuring range of an analog input module. */
  async setScale(
    customerKey: string,
    moduleId: string,
    scale: IoScale | null,
  ): Promise<IoModuleDto> {
    const mod = await this.#module(customerKey, moduleId);
    if (scale && mod.moduleType !== "ANALOG_INPUT") {
      throw validationError([{ path: "scale", key: "validation.scaleAnalogOnly", params: {} }]);
    }
    await this.db.update(ioModules).set(scaleColumns(scale)).where(eq(ioModules.id, moduleId));
    return (await this.list(customerKey)).find((m) => m.id === moduleId)!;
  }

  /** Deletes a definition; refused while a cell uses it. */
  async remove(customerKey: string, moduleId: string): Promise<void> {
    await this.#module(customerKey, moduleId);
    const [used] = await this.db.select({ cellId: cellIoModules.cellId }).from(cellIoModules)
      .where(eq(cellIoModules.moduleId, moduleId)).limit(1);
    if (used) throw new AppError("validation.deleteModuleInUse");
    await this.db.delete(ioModules).where(eq(ioModules.id, moduleId));
  }

  /** The modules of a cell and whether the cell supports I/O configuration. */
  async ofCell(customerKey: string, cellId: string): Promise<CellIoDto> {
    const reason = await this.#unsupported(customerKey, cellId);
    const rows = await this.db.select({
      m: ioModules,
      slot: cellIoModules.slot,
      active: cellIoModules.active,
    })
      .from(cellIoModules).innerJoin(ioModules, eq(ioModules.id, cellIoModules.moduleId))
      .where(eq(cellIoModules.cellId, cellId)).orderBy(asc(cellIoModules.slot));
    return {
      supported: reason === null,
      unsupported_reason: reason,
      modules: rows.map((r) => ({ ...dto(r.m, 1), slot: r.slot, active: r.active })),
      thresholds: { ...IO_THRESHOLDS },
    };
  }

  /**
   * Activates a module on a cell. Answers the cell's modules and the ids of analog inputs that
   * were deactivated because their resolution differs.
   */
  async activate(
    customerKey: string,
    cellId: string,
    moduleId: string,
  ): Promise<CellIoDto & { deactivated: string[] }> {
    let deactivated: string[] = [];
    await this.db.transaction(async (tx) => {
      if (await this.#unsupported(customerKey, cellId, tx)) {
        throw new AppError("validation.ioConfigurationUnsupported");
      }
      const mod = await this.#module(customerKey, moduleId, tx);
      const current = await tx.select({
        m: ioModules,
        slot: cellIoModules.slot,
        active: cellIoModules.active,
      })
        .from(cellIoModules).innerJoin(ioModules, eq(ioModules.id, cellIoModules.moduleId))
        .where(eq(cellIoModules.cellId, cellId));
      if (current.some((c) => c.m.id === moduleId)) throw new AppError("common.conflict");
      const sameType = current.filter((c) => c.active && c.m.moduleType === mod.moduleType);
      if (sameType.length >= IO_THRESHOLDS[mod.moduleType] || current.length >= MAX_SLOTS) {
        throw new AppError("validation.moduleThresholdExceeded", {
          type: mod.moduleType,
          limit: IO_THRESHOLDS[mod.moduleType],
        });
      }
      if (mod.moduleType === "ANALOG_INPUT") {
        deactivated = sameType.filter((c) => c.m.resolution !== mod.resolution).map((c) => c.m.id);
        for (const id of deactivated) {
          await tx.update(cellIoModules).set({ active: false })
            .where(and(eq(cellIoModules.cellId, cellId), eq(cellIoModules.moduleId, id)));
        }
      }
      const used = new Set(current.map((c) => c.slot));
      const slot = Array.from({ length: MAX_SLOTS }, (_, k) => k + 1).find((s) => !used.has(s))!;
      await tx.insert(cellIoModules).values({ cellId, moduleId, slot, active: true });
    });
    return { ...(await this.ofCell(customerKey, cellId)), deactivated };
  }

  /** Removes a module from a cell. */
  async deactivate(customerKey: string, cellId: string, moduleId: string): Promise<CellIoDto> {
    await this.setup.row(customerKey, cellId);
    const removed = await this.db.delete(cellIoModules)
      .where(and(eq(cellIoModules.cellId, cellId), eq(cellIoModules.moduleId, moduleId)))
      .returning();
    if (!removed.length) throw new AppError("common.notFound");
    return await this.ofCell(customerKey, cellId);
  }

  async #module(customerKey: string, moduleId: string, db: Db = this.db): Promise<ModuleRow> {
    const [row] = await db.select().from(ioModules)
      .where(and(eq(ioModules.id, moduleId), eq(ioModules.customerKey, customerKey)));
    if (!row) throw new AppError("common.notFound");
    return row;
  }

  /** Why a cell cannot have I/O modules (310 when it is linked to no node). */
  async #unsupported(
    customerKey: string,
    cellId: string,
    db: Db = this.db,
  ): Promise<CellIoDto["unsupported_reason"]> {
    const cell = await this.setup.row(customerKey, cellId, db);
    if (cell.deviceModel === "DTVI") return "DTVI";
    if (!cell.nodeId) throw new AppError(310);
    const [node] = await db.select({ type: nodes.electricalWorkType }).from(nodes)
      .where(eq(nodes.id, cell.nodeId));
    return node && NODE_COMPATIBILITY[node.type] ? null : "UNMETERED_NODE";
  }
}
