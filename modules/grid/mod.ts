/**
 * @module
 * Grid (gsm): the grid structure of each customer (station groups, MV feeder groups, LV groups,
 * nodes with their electrical works and feeders) and the cells that measure it.
 */
import type { PlatformModule } from "../../kernel/mod.ts";
import type { CellCommandSource } from "./cells/cell_configuration.ts";
import { cellConfigRoutes } from "./cells/cell_config_routes.ts";
import { CellOnboardingService } from "./cells/cell_onboarding.ts";
import { cellOnboardingRoutes } from "./cells/cell_onboarding_routes.ts";
import { CellsService } from "./cells/cells.ts";
import { type CellsSetupDeps, cellsSetupRoutes, cellsSetupServices } from "./cells/cells_routes.ts";
import { MAP_LAYER_MAX_BYTES } from "./map_layers/contract.ts";
import { mapLayerRoutes, MULTIPART_OVERHEAD } from "./map_layers/routes.ts";
import { SETUP_BODY_LIMIT, structureRoutes } from "./structure/routes.ts";

export { type CellDto, type CellIdentity, CellsService, type DeviceStatus } from "./cells/cells.ts";
export { CellOnboardingService } from "./cells/cell_onboarding.ts";
export type { CellCredentialDto, RegisterCellInput } from "./contract.ts";
export {
  allNodes,
  createStructure,
  type NewStationGroup,
  readStructure,
  structureVersion,
  visualStatisticsView,
} from "./structure/read.ts";
export { GridSetupService } from "./structure/setup_service.ts";
export {
  type CellMappingState,
  cellMappingStates,
  type FeederMappingState,
} from "./cells/mapping_state.ts";
export type { CellsToConfigure, MappingValidated } from "./events.ts";
export type { CellsSetupDeps, CellsSetupServices } from "./cells/cells_routes.ts";
export {
  type CellCommand,
  type CellCommandSource,
  mapStraight,
} from "./cells/cell_configuration.ts";
export {
  type ElectricalWorkStatus,
  type ElectricalWorkType,
  estimatesMv,
  type FeederDto,
  feederLevel,
  type FeederType,
  type IoScale,
  isMvFeeder,
  type Level,
  LEVELS,
  type NodeDto,
  type StationGroupDto,
  type VisualStatisticsView,
} from "./contract.ts";
export {
  activeIoCells,
  type ActiveIoModule,
  type IoCell,
  ioModulesService,
} from "./cells/io_cells.ts";
export type { IoModulesService, NewIoModule } from "./cells/io_modules.ts";

/** The grid module: the cells facade other modules read, /gsm and the cells' configuration. */
export interface GridModule extends PlatformModule {
  cells: CellsService;
  /** The one way cells are registered (the demo seed uses it too) and credentials managed. */
  onboarding: CellOnboardingService;
  /** Adds commands to the cells' configuration answers (docs/cell-configuration.md). */
  addCommandSource(source: CellCommandSource): void;
}

/** What the grid module needs: the cells services' needs and the address cells send to. */
export interface GridDeps extends CellsSetupDeps {
  /** PUBLIC_URL: the ingest and configuration addresses in a new cell's credential answer. */
  publicUrl: string;
}

/** Builds the grid module (grid structure and setup, cells, I/O modules, map layers). */
export function gridModule(deps: GridDeps): GridModule {
  const cells = new CellsService(deps.db);
  const cellsSetup = cellsSetupServices({ ...deps, placementChanged: (id) => cells.forget(id) });
  const onboarding = new CellOnboardingService(deps.db, cells, { publicUrl: deps.publicUrl });
  return {
    name: "grid",
    cells,
    onboarding,
    addCommandSource: (source) => cellsSetup.configuration.addCommandSource(source),
    api: [
      { prefix: "/gsm", routes: structureRoutes(deps.db, deps.bus) },
      { prefix: "/gsm", routes: mapLayerRoutes(deps.db) },
      { prefix: "/gsm", routes: cellOnboardingRoutes({ onboarding, setup: cellsSetup.setup }) },
      { prefix: "/gsm", routes: cellsSetupRoutes(cellsSetup) },
    ],
    bodyLimits: [
      { path: /^\/gsm\/map-layers$/, bytes: MAP_LAYER_MAX_BYTES + MULTIPART_OVERHEAD },
      SETUP_BODY_LIMIT,
    ],
    // The cells' configuration poll authenticates the cell, not a user.
    public: [{
      prefix: "/ingest",
      routes: cellConfigRoutes({ cells, configuration: cellsSetup.configuration }),
    }],
    close: () => Promise.resolve(cells.close()),
  };
}
