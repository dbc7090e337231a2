/**
 * @module
 * Grid (gsm): the grid structure of each customer (station groups, MV feeder groups, LV groups,
 * nodes with their electrical works and feeders) and the cells that measure it.
 */
import type { PlatformModule } from "../../kernel/mod.ts";
import { cellConfigRoutes } from "./cell_config_routes.ts";
import { CellOnboardingService } from "./cell_onboarding.ts";
import { cellOnboardingRoutes } from "./cell_onboarding_routes.ts";
import { CellsService } from "./cells.ts";
import { type CellsSetupDeps, cellsSetupRoutes, cellsSetupServices } from "./cells_routes.ts";
import { MAP_LAYER_MAX_BYTES } from "./map_layers.ts";
import { gridRoutes } from "./routes.ts";
import { MULTIPART_OVERHEAD } from "./setup_routes.ts";

export { type CellDto, type CellIdentity, CellsService, type DeviceStatus } from "./cells.ts";
export { CellOnboardingService } from "./cell_onboarding.ts";
export type { CellCredentialDto, RegisterCellInput } from "./contract.ts";
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
export type { CellsSetupDeps, CellsSetupServices } from "./cells_routes.ts";
export { mapStraight } from "./cell_mapping.ts";
export type { ElectricalWorkType, FeederType } from "./schema.ts";
export { activeIoCells, type ActiveIoModule, type IoCell, ioModulesService } from "./io_cells.ts";
export type { IoModulesService, NewIoModule } from "./io_modules.ts";

/** The grid module: the cells facade other modules read, /gsm and the cells' configuration. */
export interface GridModule extends PlatformModule {
  cells: CellsService;
  /** The one way cells are registered (the demo seed uses it too) and credentials managed. */
  onboarding: CellOnboardingService;
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
    api: [
      { prefix: "/gsm", routes: gridRoutes(deps.db, deps.bus) },
      { prefix: "/gsm", routes: cellOnboardingRoutes({ onboarding, setup: cellsSetup.setup }) },
      { prefix: "/gsm", routes: cellsSetupRoutes(cellsSetup) },
    ],
    bodyLimits: [{ path: /^\/gsm\/map-layers$/, bytes: MAP_LAYER_MAX_BYTES + MULTIPART_OVERHEAD }],
    // The cells' configuration poll authenticates the cell, not a user.
    public: [{
      prefix: "/ingest",
      routes: cellConfigRoutes({ cells, mapping: cellsSetup.mapping }),
    }],
    close: () => Promise.resolve(cells.close()),
  };
}
