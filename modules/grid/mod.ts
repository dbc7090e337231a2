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
  structureVersion,
  type VisualStatisticsView,
  visualStatisticsView,
} from "./structure.ts";
export {
  assertMvEstimationMapping,
  type ElectricalWorkStatus,
  GridSetupService,
  returnCellsToWaiting,
} from "./setup_service.ts";
export type { CellsToConfigure, MappingValidated } from "./events.ts";
export { gridRoutes } from "./routes.ts";
export { cellsSetupRoutes, type CellsSetupServices, cellsSetupServices } from "./cells_routes.ts";
export { cellConfigRoutes } from "./cell_config_routes.ts";
export { mapStraight } from "./cell_mapping.ts";
export type { ElectricalWorkType, FeederType } from "./schema.ts";
export { activeIoCells, type ActiveIoModule, type IoCell, ioModulesService } from "./io_cells.ts";
export type { IoModulesService, NewIoModule } from "./io_modules.ts";
