/**
 * The MV rules of a node's feeders (spec 5, 8.2) and the feeder rows they are checked on: at
 * most 6 feeders; one transformer with MV estimation (307); MV estimation is enabled only with
 * L1, L2 and L3 mapped on the node's cell (308); MV lines need a transformer with MV estimation
 * (309), which cannot be disabled while an MV line exists (313).
 */
import { and, eq, inArray } from "drizzle-orm";
import { AppError } from "../../../kernel/mod.ts";
import { cellMappings, cells, feeders } from "../schema.ts";
import type { Executor } from "./access.ts";
import { newId } from "./access.ts";
import { estimatesMv, type FeederDto, type FeederInput } from "./contract.ts";
import { hasThreePhaseMapping, MAX_FEEDERS } from "./validation.ts";

/** A feeder row of the database. */
export type FeederRow = typeof feeders.$inferSelect;
type FeederFacts = Pick<FeederRow, "id" | "slot" | "type" | "parameters">;

/** A feeder row as the API shows it. */
export function feederDto(f: FeederRow): FeederDto {
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

/** The row of a feeder input in a slot of a node (a new id). */
export function toFeederRow(nodeId: string, slot: number, input: FeederInput): FeederRow {
  return {
    id: newId(),
    nodeId,
    slot,
    name: input.name,
    type: input.type,
    direction: input.in_out,
    nominalCurrentA: input.nominal_current_a,
    parameters: input.parameters,
  };
}

/** Refuses more than 6 feeders on a node (spec 9). */
export function refuseTooManyFeeders(count: number): void {
  if (count > MAX_FEEDERS) throw new AppError("setup.maxFeeders", { max: MAX_FEEDERS });
}

/**
 * Checks the MV rules of one node's feeders before and after a change. Returns whether the
 * node's mapping must be validated again (MV estimation changed); then its cell goes to
 * UNDER_VALIDATION in the same transaction (spec 4).
 */
export async function checkNodeFeeders(
  tx: Executor,
  nodeId: string,
  before: readonly FeederFacts[],
  after: readonly FeederFacts[],
): Promise<{ mapping_revalidation_required: boolean }> {
  refuseTooManyFeeders(after.length);
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
