/**
 * The mapping state of a customer's cells in one read, for lists that show every cell (the
 * external API's fleet management): where the cell is placed (node, the node's feeders), which
 * phases of each feeder are mapped to a probe, whether the cell applied the current mapping, and
 * the setup screen's mapping status (toSetupCell's rule, not a second one).
 */
import { asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../../kernel/mod.ts";
import type { MappedPhase, MappingStatus } from "../contract.ts";
import { cellMappings, cells, feeders, MAPPED_PHASES } from "../schema.ts";
import { toSetupCell } from "./cells_setup.ts";

/** One feeder of the cell's node and its mapped phases (in L1, L2, L3, N order). */
export interface FeederMappingState {
  feeder_id: string;
  slot: number;
  name: string;
  phases: { phase: MappedPhase; probe: number }[];
}

/** A cell's placement and mapping. */
export interface CellMappingState {
  /** TO_BE_CONFIGURED (nothing mapped), IN_PROGRESS or CONFIGURED, as the setup screen shows. */
  status: MappingStatus;
  /** Linked to a node. */
  placed: boolean;
  node_id: string | null;
  /** Every feeder of the node has L1 mapped (a feeder's phases start with L1). */
  complete: boolean;
  /** The cell applied the current mapping version. */
  synchronized: boolean;
  feeders: FeederMappingState[];
}

/** The mapping states of the customer's cells, by cell id. */
export async function cellMappingStates(
  db: Db,
  customerKey: string,
): Promise<Map<string, CellMappingState>> {
  const rows = await db.select().from(cells).where(eq(cells.customerKey, customerKey));
  const nodeIds = [...new Set(rows.flatMap((r) => r.nodeId ? [r.nodeId] : []))];
  const cellIds = rows.map((r) => r.id);
  const feederRows = nodeIds.length
    ? await db.select().from(feeders).where(inArray(feeders.nodeId, nodeIds))
      .orderBy(asc(feeders.slot))
    : [];
  const entries = cellIds.length
    ? await db.select().from(cellMappings).where(inArray(cellMappings.cellId, cellIds))
    : [];
  const probes = new Map<string, Map<MappedPhase, number>>();
  for (const e of entries) {
    const key = `${e.cellId}|${e.feederId}`;
    const phases = probes.get(key) ?? new Map<MappedPhase, number>();
    phases.set(e.phase, e.probe);
    probes.set(key, phases);
  }
  const mapped = new Set(entries.map((e) => e.cellId));
  const out = new Map<string, CellMappingState>();
  for (const row of rows) {
    const nodeFeeders = row.nodeId ? feederRows.filter((f) => f.nodeId === row.nodeId) : [];
    const states = nodeFeeders.map((f) => {
      const phases = probes.get(`${row.id}|${f.id}`);
      return {
        feeder_id: f.id,
        slot: f.slot,
        name: f.name,
        phases: MAPPED_PHASES.flatMap((phase) => {
          const probe = phases?.get(phase);
          return probe === undefined ? [] : [{ phase, probe }];
        }),
      };
    });
    out.set(row.id, {
      status: toSetupCell(row, null, mapped.has(row.id)).mapping_status,
      placed: row.nodeId !== null,
      node_id: row.nodeId,
      complete: states.length > 0 && states.every((f) => f.phases[0]?.phase === "L1"),
      synchronized: mapped.has(row.id) && row.mappingAckedVersion === row.mappingVersion,
      feeders: states,
    });
  }
  return out;
}
