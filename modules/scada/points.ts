/**
 * The default point list of a profile (POST /scm/profiles/{id}/points/generate) and the names of
 * points, from the grid structure. Pure: the structure is passed in.
 */
import type { NodeDto, StationGroupDto } from "../grid/mod.ts";
import { isMvFeeder } from "../grid/mod.ts";
import {
  dataTypeOf,
  type ExtraQuantity,
  isPhaseQuantity,
  type PointDto,
  type Quantity,
  SCADA_LIMITS,
} from "./contract.ts";

/** A stored point (the contract's input with its defaults applied). */
export interface StoredPoint {
  ioa: number;
  node_id: string;
  feeder_id: string | null;
  quantity: Quantity;
  phase: number | null;
  activated: boolean;
}

/** Every node of a structure in feeder order (station group > MV feeder > LV group > node). */
export function nodesInOrder(structure: readonly StationGroupDto[]): NodeDto[] {
  return structure.flatMap((g) =>
    g.mv_feeder_groups.flatMap((m) => m.lv_groups.flatMap((l) => l.nodes))
  );
}

/** The LV feeders of a node in slot order (the ones whose values a cell sends per phase). */
export function lvFeeders(node: NodeDto): NodeDto["feeders"] {
  return node.feeders.filter((f) => !isMvFeeder(f)).sort((a, b) => a.slot - b.slot);
}

/**
 * The default list: for every node in feeder order, U per phase (of its first LV feeder: the
 * busbar voltage), I per phase of every LV feeder, the node state and whether its cell is
 * connected; addresses from `firstIoa` on, one apart. `extra` adds, per node, its frequency
 * (after U) and P and/or Q per phase of every LV feeder (after that feeder's I).
 */
export function generatePoints(
  structure: readonly StationGroupDto[],
  firstIoa = 1,
  extra: readonly ExtraQuantity[] = [],
): StoredPoint[] {
  const out: StoredPoint[] = [];
  let ioa = firstIoa;
  const push = (p: Omit<StoredPoint, "ioa" | "activated">) => {
    if (ioa > SCADA_LIMITS.ioaMax || out.length >= SCADA_LIMITS.pointsMax) return;
    out.push({ ...p, ioa: ioa++, activated: true });
  };
  for (const node of nodesInOrder(structure)) {
    const feeders = lvFeeders(node);
    const first = feeders[0];
    if (first) {
      for (const phase of [1, 2, 3]) {
        push({ node_id: node.id, feeder_id: first.id, quantity: "U", phase });
      }
      if (extra.includes("FREQUENCY")) {
        push({ node_id: node.id, feeder_id: null, quantity: "FREQUENCY", phase: null });
      }
    }
    for (const feeder of feeders) {
      for (const quantity of ["I", "P", "Q"] as const) {
        if (quantity !== "I" && !extra.includes(quantity)) continue;
        for (const phase of [1, 2, 3]) {
          push({ node_id: node.id, feeder_id: feeder.id, quantity, phase });
        }
      }
    }
    push({ node_id: node.id, feeder_id: null, quantity: "NODE_STATE", phase: null });
    push({ node_id: node.id, feeder_id: null, quantity: "CELL_CONNECTED", phase: null });
  }
  return out;
}

/** Points as the API answers them: with their data type, element type and name. */
export function describePoints(
  structure: readonly StationGroupDto[],
  points: readonly StoredPoint[],
): PointDto[] {
  const nodes = new Map(nodesInOrder(structure).map((n) => [n.id, n]));
  return points.map((p) => {
    const node = nodes.get(p.node_id);
    const feeder = p.feeder_id ? node?.feeders.find((f) => f.id === p.feeder_id) : undefined;
    const phaseBound = isPhaseQuantity(p.quantity);
    const known = !!node && (!phaseBound || !!feeder);
    const names = node ? [node.electrical_work.name, node.name] : [];
    if (feeder) names.push(feeder.name);
    return {
      ...p,
      data_type: dataTypeOf(p.quantity),
      element_type: phaseBound ? "FEEDER" : "NODE",
      element_name: names.join(" / "),
      known,
    };
  });
}
