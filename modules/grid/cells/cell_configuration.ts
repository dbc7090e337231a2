/**
 * The cell's side of its configuration (docs/cell-configuration.md): what a cell fetches with its
 * own credential (its line mapping, I/O modules and what data to send) and its acknowledgement
 * of the mapping version it applied.
 */
import { asc, eq } from "drizzle-orm";
import { AppError, type Db } from "../../../kernel/mod.ts";
import type { MappedPhase } from "../contract.ts";
import {
  cellIoModules,
  cellMappings,
  cells,
  feeders,
  ioModules,
  MAPPED_PHASES,
} from "../schema.ts";

/** How often a cell asks for its configuration (documented in docs/cell-configuration.md). */
export const CONFIGURATION_POLL_S = 60;

/** What GET /ingest/v1/configuration answers (docs/cell-configuration.md). */
export interface CellConfiguration {
  cell_id: string;
  installed: boolean;
  mapping_version: number;
  feeders: { slot: number; probes: { probe: number; phase: MappedPhase }[] }[];
  io_modules: {
    module: number;
    kind: "DI" | "DO" | "AI";
    system_type: string;
    size: number;
    resolution: number;
    active: boolean;
  }[];
  /** NONE: send nothing; VALIDATION: send the 20-s values until the mapping is validated; FULL. */
  data: "NONE" | "VALIDATION" | "FULL";
  poll_interval_s: number;
  /** Work the platform asks of the cell (docs/cell-configuration.md, "Commands"). */
  commands: CellCommand[];
}

/**
 * A command for a cell, delivered with its configuration: `id` names it, `kind` says what to do,
 * the other fields are the kind's parameters (e.g. UPLOAD_EVENT_RECORDING with `event_id` and
 * `upload_path`).
 */
export interface CellCommand {
  id: string;
  kind: string;
  [parameter: string]: unknown;
}

/**
 * Another module's commands for a cell, asked at each configuration poll (the poll is the
 * cell's contact: a source may note that the cell picked its commands up).
 */
export type CellCommandSource = (cellId: string, customerKey: string) => Promise<CellCommand[]>;

/** Default mapping (probe k on phase k, every feeder) of installed cells, e.g. for the demo. */
export async function mapStraight(db: Db, cellId: string, nodeId: string): Promise<void> {
  const rows = await db.select({ id: feeders.id }).from(feeders).where(eq(feeders.nodeId, nodeId));
  if (!rows.length) return;
  await db.insert(cellMappings).values(
    rows.flatMap((f) =>
      MAPPED_PHASES.map((phase, k) => ({ cellId, feederId: f.id, phase, probe: k + 1 }))
    ),
  );
  await db.update(cells).set({
    mappingVersion: 1,
    mappingAckedVersion: 1,
    mappingAckedAt: new Date(),
  })
    .where(eq(cells.id, cellId));
}

/** Configurations fetched and acknowledged by the cells themselves. */
export class CellConfigurationService {
  readonly #commandSources: CellCommandSource[] = [];

  constructor(private readonly db: Db, private readonly clock: () => number = Date.now) {}

  /** Adds a source of commands (set up by the composition root after the modules exist). */
  addCommandSource(source: CellCommandSource): void {
    this.#commandSources.push(source);
  }

  /**
   * The configuration a cell fetches with its own credential; the call counts as a contact
   * (last seen; a waiting cell's first contact makes it FIRST_CONNECTION).
   */
  async configurationFor(cellId: string): Promise<CellConfiguration> {
    const now = new Date(this.clock());
    const [row] = await this.db.select().from(cells).where(eq(cells.id, cellId));
    if (!row) throw new AppError("common.unauthorized");
    await this.db.update(cells).set({
      lastSeen: now,
      ...(row.status === "FIELD_INSTALLATION" ? { status: "FIRST_CONNECTION" } : {}),
    }).where(eq(cells.id, cellId));
    const entries = row.nodeId
      ? await this.db.select({
        slot: feeders.slot,
        phase: cellMappings.phase,
        probe: cellMappings.probe,
      })
        .from(cellMappings).innerJoin(feeders, eq(feeders.id, cellMappings.feederId))
        .where(eq(cellMappings.cellId, cellId)).orderBy(asc(feeders.slot), asc(cellMappings.probe))
      : [];
    const modules = await this.db.select({
      slot: cellIoModules.slot,
      active: cellIoModules.active,
      type: ioModules.moduleType,
      systemType: ioModules.systemType,
      size: ioModules.size,
      resolution: ioModules.resolution,
    }).from(cellIoModules).innerJoin(ioModules, eq(ioModules.id, cellIoModules.moduleId))
      .where(eq(cellIoModules.cellId, cellId)).orderBy(asc(cellIoModules.slot));
    const slots = [...new Set(entries.map((e) => e.slot))];
    const configured = ["CONFIRMED", "SKIPPED", "CONNECTED", "DISCONNECTED"].includes(row.status);
    return {
      cell_id: row.id,
      installed: row.type === "INSTALLED",
      mapping_version: row.mappingVersion,
      feeders: slots.map((slot) => ({
        slot,
        probes: entries.filter((e) => e.slot === slot).map((e) => ({
          probe: e.probe,
          phase: e.phase,
        })),
      })),
      io_modules: modules.map((m) => ({
        module: m.slot,
        kind: m.type === "DIGITAL_INPUT" ? "DI" : m.type === "DIGITAL_OUTPUT" ? "DO" : "AI",
        system_type: m.systemType,
        size: m.size,
        resolution: m.resolution,
        active: m.active,
      })),
      data: row.type !== "INSTALLED" || !entries.length
        ? "NONE"
        : configured
        ? "FULL"
        : "VALIDATION",
      poll_interval_s: CONFIGURATION_POLL_S,
      commands: (await Promise.all(
        this.#commandSources.map((source) => source(row.id, row.customerKey)),
      )).flat(),
    };
  }

  /** The cell applied `version`: stale versions are refused (409). */
  async acknowledge(cellId: string, version: number): Promise<void> {
    const [row] = await this.db.select().from(cells).where(eq(cells.id, cellId));
    if (!row) throw new AppError("common.unauthorized");
    if (version !== row.mappingVersion) {
      throw new AppError("common.conflict", { mapping_version: row.mappingVersion });
    }
    await this.db.update(cells).set({
      mappingAckedVersion: version,
      mappingAckedAt: new Date(this.clock()),
      lastSeen: new Date(this.clock()),
      ...(row.status === "NOT_SYNCHRONIZED" ? { status: "UNDER_VALIDATION" } : {}),
    }).where(eq(cells.id, cellId));
  }
}
