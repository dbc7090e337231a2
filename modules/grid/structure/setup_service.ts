/**
 * Grid setup (spec 5, 8.2 3xx): the operations on a customer's grid structure, by sub-area:
 * the three group levels (groups.ts, table-driven), nodes with their feeders (nodes.ts), the MV
 * topology of an MV feeder group (mv_topology.ts) and the electrical works' status and search
 * (electrical_works.ts). Inputs are the contract's parsed types (contract.ts); refusals are
 * catalogue errors.
 */
import type { Db, EventBus } from "../../../kernel/mod.ts";
import { ElectricalWorks } from "./electrical_works.ts";
import { groupOperations } from "./groups.ts";
import { MvTopologyOperations } from "./mv_topology.ts";
import { NodeOperations } from "./nodes.ts";

/** The grid setup of every customer, by sub-area. */
export class GridSetupService {
  readonly stations;
  readonly mvFeederGroups;
  readonly lvGroups;
  readonly nodes: NodeOperations;
  readonly mvTopology: MvTopologyOperations;
  readonly electricalWorks: ElectricalWorks;

  constructor(db: Db, bus?: EventBus) {
    const groups = groupOperations(db);
    this.stations = groups.stations;
    this.mvFeederGroups = groups.mvFeederGroups;
    this.lvGroups = groups.lvGroups;
    this.nodes = new NodeOperations(db, bus);
    this.mvTopology = new MvTopologyOperations(db);
    this.electricalWorks = new ElectricalWorks(db);
  }
}
