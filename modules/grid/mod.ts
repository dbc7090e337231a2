/**
 * @module
 * Grid (gsm): the grid structure of each customer (station groups, MV feeder groups, LV groups,
 * nodes with their electrical works and feeders) and the cells that measure it.
 */
export { type CellDto, type CellIdentity, CellsService, type DeviceStatus } from "./cells.ts";
export {
  allNodes,
  createStructure,
  type FeederDto,
  type NewStationGroup,
  type NodeDto,
  readStructure,
  type StationGroupDto,
} from "./structure.ts";
export type { CellsToConfigure, MappingValidated } from "./events.ts";
export { gridRoutes } from "./routes.ts";
export type { ElectricalWorkType, FeederType } from "./schema.ts";
