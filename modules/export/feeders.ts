/**
 * The feeders an export can read, from the monitored topology (monitoring's TopologyCache) and
 * the cells installed at the nodes: the picker's list, and the names and series of a selection.
 * A feeder of another customer is not in the customer's topology: it is refused like an
 * unknown one.
 */
import type { MeasurementStore } from "../../core/mod.ts";
import type { CellsService, StationGroupDto } from "../grid/mod.ts";
import { validationError } from "../../kernel/mod.ts";
import type { ExportFeederDto } from "./contract.ts";
import type { ExportFeeder } from "./writer.ts";

/** What the directory reads. */
export interface ExportFeederDeps {
  topology: { get(customerKey: string): Promise<{ structure: readonly StationGroupDto[] }> };
  cells: Pick<CellsService, "listFor">;
  store: Pick<MeasurementStore, "seriesId">;
}

/** The feeders of a customer for the picker and the export. */
export interface ExportFeederDirectory {
  list(customerKey: string): Promise<ExportFeederDto[]>;
  /** The feeders of `ids`; a field error on `feeders` for an id that is not the customer's. */
  resolve(customerKey: string, ids: readonly string[]): Promise<ExportFeeder[]>;
}

export function exportFeederDirectory(deps: ExportFeederDeps): ExportFeederDirectory {
  const list = async (customerKey: string) => {
    const { structure } = await deps.topology.get(customerKey);
    const out: (ExportFeederDto & { slot: number })[] = [];
    for (const g of structure) {
      for (const m of g.mv_feeder_groups) {
        for (const l of m.lv_groups) {
          for (const n of l.nodes) {
            for (const f of n.feeders) {
              out.push({
                feeder_id: f.id,
                feeder_name: f.name,
                feeder_type: f.type,
                slot: f.slot,
                node_id: n.id,
                node_name: n.name,
                station_name: n.electrical_work.name,
                lv_group_id: l.id,
                lv_group_name: l.name,
                station_group_id: g.id,
                station_group_name: g.name,
              });
            }
          }
        }
      }
    }
    return out;
  };
  return {
    async list(customerKey) {
      return (await list(customerKey)).map(({ slot: _, ...f }) => f);
    },
    async resolve(customerKey, ids) {
      const all = new Map((await list(customerKey)).map((f) => [f.feeder_id, f]));
      const unknown = ids.findIndex((id) => !all.has(id));
      if (unknown >= 0) {
        throw validationError([{
          path: `feeders.${unknown}`,
          key: "grid.elementNotFound",
          params: {},
        }]);
      }
      const cellOf = new Map<string, string>();
      for (const cell of await deps.cells.listFor(customerKey, "INSTALLED")) {
        if (cell.node_id && !cell.revoked) cellOf.set(cell.node_id, cell.id);
      }
      return [...new Set(ids)].map((id) => {
        const f = all.get(id)!;
        const cellId = cellOf.get(f.node_id);
        return {
          feeder_id: f.feeder_id,
          feeder_name: f.feeder_name,
          node_name: f.node_name,
          station_name: f.station_name,
          series: [0, 1, 2, 3].map((phase) =>
            cellId === undefined ? undefined : deps.store.seriesId(cellId, f.slot, phase)
          ),
        };
      });
    },
  };
}
