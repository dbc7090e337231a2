/**
 * The monitored topology of a customer: the grid structure joined with the cells installed at
 * its nodes and the time-series ids their phases write to. Rebuilt at most every 30 s.
 */
import type { MeasurementStore, NodeTopology } from "../../core/mod.ts";
import { allNodes, type CellsService, readStructure, type StationGroupDto } from "../grid/mod.ts";
import type { Db } from "../kernel/mod.ts";

/** MV values exist at MV lines and at transformers with MV voltage estimation. */
export function isMvFeeder(feeder: { type: string; parameters: Record<string, unknown> }): boolean {
  return feeder.type === "MV_LINE" ||
    (feeder.type === "TRANSFORMER" && feeder.parameters.mvVoltageEstimation === true);
}

/** A structure plus the evaluation input per voltage level. */
export interface Topology {
  structure: StationGroupDto[];
  lv: NodeTopology[];
  mv: NodeTopology[];
  builtAt: number;
}

const TTL_MS = 30_000;

/** Builds and caches topologies per customer. */
export class TopologyCache {
  readonly #cache = new Map<string, Topology>();

  constructor(
    private readonly db: Db,
    private readonly cells: CellsService,
    private readonly store: MeasurementStore,
  ) {}

  async get(customerKey: string, now = Date.now()): Promise<Topology> {
    const cached = this.#cache.get(customerKey);
    if (cached && now - cached.builtAt < TTL_MS) return cached;
    const topology = await this.#build(customerKey, now);
    this.#cache.set(customerKey, topology);
    return topology;
  }

  async #build(customerKey: string, now: number): Promise<Topology> {
    const structure = await readStructure(this.db, customerKey);
    const cellOf = new Map<string, string>();
    for (const cell of await this.cells.listFor(customerKey, "INSTALLED")) {
      if (cell.node_id && !cell.revoked) cellOf.set(cell.node_id, cell.id);
    }
    const lv: NodeTopology[] = [];
    const mv: NodeTopology[] = [];
    for (const node of allNodes(structure)) {
      const cellId = cellOf.get(node.id);
      const feeders = (mvOnly: boolean) =>
        node.feeders.filter((f) => isMvFeeder(f) === mvOnly).map((f) => ({
          id: f.id,
          slot: f.slot,
          nominalCurrentA: f.nominal_current_a,
          series: [0, 1, 2].map((
            phase,
          ) => (cellId ? this.store.seriesId(cellId, f.slot, phase) : undefined)),
        }));
      lv.push({ id: node.id, upstreamNodeId: node.upstream_node_id, feeders: feeders(false) });
      const mvFeeders = feeders(true);
      if (mvFeeders.length) {
        mv.push({ id: node.id, upstreamNodeId: node.upstream_node_id, feeders: mvFeeders });
      }
    }
    return { structure, lv, mv, builtAt: now };
  }
}
