/**
 * Where each of a customer's cells is: the cells installed at a node of its grid structure, with
 * the node, electrical work, LV group, MV feeder group and coordinates. Pure.
 */
import type { StationGroupDto } from "../grid/mod.ts";

/** Where a cell is: its node and electrical work. */
export interface CellPlace {
  cellId: string;
  nodeId: string;
  nodeName: string;
  ewKey: string;
  ewName: string;
  ewType: string;
  lvGroup: string;
  latitude: number;
  longitude: number;
  mvGroupId: string;
  mvGroupName: string;
}

/** The places of `cells` (installed ones; those without a node are left out), by cell id. */
export function cellPlaces(
  structure: readonly StationGroupDto[],
  cells: readonly { id: string; node_id?: string | null }[],
): Map<string, CellPlace> {
  const cellOf = new Map<string, string>();
  for (const cell of cells) {
    if (cell.node_id) cellOf.set(cell.node_id, cell.id);
  }
  const out = new Map<string, CellPlace>();
  for (const g of structure) {
    for (const m of g.mv_feeder_groups) {
      for (const lv of m.lv_groups) {
        for (const node of lv.nodes) {
          const cellId = cellOf.get(node.id);
          if (!cellId) continue;
          out.set(cellId, {
            cellId,
            nodeId: node.id,
            nodeName: node.name,
            ewKey: node.electrical_work.key,
            ewName: node.electrical_work.name,
            ewType: node.electrical_work.type,
            lvGroup: lv.name,
            latitude: node.latitude,
            longitude: node.longitude,
            mvGroupId: m.id,
            mvGroupName: m.name,
          });
        }
      }
    }
  }
  return out;
}
