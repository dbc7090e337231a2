/**
 * The feeders visual statistics can chart, from the monitored topology (the structure the grid
 * status uses, rebuilt every 30 s): names, voltage level and the cell installed at the node.
 * Series ids are looked up in the store per request (map lookups), so a probe that starts to
 * report is charted at once.
 */
import type { MeasurementStore } from "../../core/mod.ts";
import { allNodes, type CellsService, feederLevel, type StationGroupDto } from "../grid/mod.ts";
import { AppError } from "../../kernel/mod.ts";
import type { FeederDirectory, FeederRef, Level } from "./service.ts";

/** What the directory reads of a topology (monitoring's TopologyCache gives it). */
interface Topology {
  structure: readonly StationGroupDto[];
}

/** A feeder of the index: what the answer names and where its values are stored. */
interface IndexedFeeder {
  feeder_id: string;
  feeder_name: string;
  node_id: string;
  node_name: string;
  slot: number;
  level: Level;
  cellId: string | undefined;
}

/** What the directory reads. */
export interface TopologyDirectoryDeps {
  /** The current topology of a customer; a new object whenever it was rebuilt. */
  topology: { get(customerKey: string): Promise<Topology> };
  cells: Pick<CellsService, "listFor">;
  store: Pick<MeasurementStore, "seriesId">;
}

/**
 * A {@link FeederDirectory} over the topology cache. The index of a topology is built once
 * (one cell listing) and kept as long as the topology is the current one.
 */
export function topologyDirectory(deps: TopologyDirectoryDeps): FeederDirectory {
  const indexes = new WeakMap<Topology, Promise<Map<string, IndexedFeeder>>>();
  const indexOf = (customerKey: string, topology: Topology) => {
    let index = indexes.get(topology);
    if (!index) {
      index = buildIndex(customerKey, topology, deps.cells);
      index.catch(() => indexes.delete(topology));
      indexes.set(topology, index);
    }
    return index;
  };
  return {
    async feeders(customerKey, level, ids): Promise<FeederRef[]> {
      const index = await indexOf(customerKey, await deps.topology.get(customerKey));
      return ids.map((id) => {
        const feeder = index.get(id);
        if (!feeder || feeder.level !== level) throw new AppError("grid.elementNotFound");
        const { slot, cellId, level: _, ...names } = feeder;
        return {
          ...names,
          series: [0, 1, 2, 3].map((phase) =>
            cellId === undefined ? undefined : deps.store.seriesId(cellId, slot, phase)
          ),
        };
      });
    },
  };
}

async function buildIndex(
  customerKey: string,
  topology: Topology,
  cells: TopologyDirectoryDeps["cells"],
): Promise<Map<string, IndexedFeeder>> {
  const cellOf = new Map<string, string>();
  for (const cell of await cells.listFor(customerKey, "INSTALLED")) {
    if (cell.node_id && !cell.revoked) cellOf.set(cell.node_id, cell.id);
  }
  const index = new Map<string, IndexedFeeder>();
  for (const node of allNodes(topology.structure)) {
    for (const feeder of node.feeders) {
      index.set(feeder.id, {
        feeder_id: feeder.id,
        feeder_name: feeder.name,
        node_id: node.id,
        node_name: node.name,
        slot: feeder.slot,
        // The grid status's rule: MV values at MV lines and transformers with MV estimation.
        level: feederLevel(feeder),
        cellId: cellOf.get(node.id),
      });
    }
  }
  return index;
}
