/**
 * @module
 * Monitoring (evm): live grid status per voltage level from the streaming core, with state
 * changes published as `monitoring.nodeStateChanged` events; custom monitoring of fast current
 * changes (manual requests, automatic triggers publishing `monitoring.customTriggerFired`).
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import type { MeasurementStore } from "../../core/mod.ts";
import type { Db, EventBus, Logger, PlatformModule } from "../../kernel/mod.ts";
import type { CustomersService } from "../customers/mod.ts";
import type { CellsService } from "../grid/mod.ts";
import { type CustomMonitoring, startCustomMonitoring } from "./custom/monitoring.ts";
import { monitoringRoutes } from "./routes.ts";
import { GridStatusService } from "./service.ts";
import { TopologyCache } from "./topology.ts";

export type { CustomTriggerFired, NodeStateChanged } from "./events.ts";
export {
  type FullGridStatusDto,
  type GridStatusDto,
  GridStatusService,
  type Level,
  nominalVoltage,
} from "./service.ts";
export { TopologyCache } from "./topology.ts";
export {
  type CustomMonitoring,
  type CustomMonitoringDeps,
  startCustomMonitoring,
} from "./custom/monitoring.ts";
export type {
  NodeDetailDto,
  NodeValuesDto,
  RequestDto,
  RequestStatus,
  RequestValuesDto,
  TriggerDto,
} from "./contract.ts";

/** What the monitoring module needs from the composition root. */
export interface MonitoringModuleDeps {
  db: Db;
  bus: EventBus;
  logger: Logger;
  cells: CellsService;
  customers: Pick<CustomersService, "getByKey" | "allKeys">;
  store: MeasurementStore;
  /** The DuckDB connection for queries. */
  analytics: DuckDBConnection;
}

/** The monitoring module: grid status and topology for other modules, and the /evm routes. */
export interface MonitoringModule extends PlatformModule {
  gridStatus: GridStatusService;
  /** One topology per customer (visual statistics reads its feeders through it). */
  topology: TopologyCache;
  customMonitoring: CustomMonitoring;
}

/** Grid status is evaluated, and its changes published, every 20 s (the cells' cadence). */
const WATCH_MS = 20_000;

/** Builds the monitoring module; `start()` begins the 20-s grid status watch. */
export async function monitoringModule(deps: MonitoringModuleDeps): Promise<MonitoringModule> {
  const topology = new TopologyCache(deps.db, deps.cells, deps.store);
  const gridStatus = new GridStatusService(topology, deps.store, deps.customers);
  const customMonitoring = await startCustomMonitoring({
    db: deps.db,
    cells: deps.cells,
    allCustomerKeys: () => deps.customers.allKeys(),
    store: deps.store,
    connection: deps.analytics,
    bus: deps.bus,
    logger: deps.logger.child({ module: "custom-monitoring" }),
  });
  let watch: ReturnType<typeof setInterval> | undefined;
  return {
    name: "monitoring",
    gridStatus,
    topology,
    customMonitoring,
    api: [{ prefix: "/evm", routes: monitoringRoutes(gridStatus, customMonitoring) }],
    start() {
      watch = setInterval(async () => {
        try {
          await gridStatus.publishChanges(deps.bus, await deps.customers.allKeys());
        } catch (error) {
          deps.logger.error("Grid status evaluation failed", { error });
        }
      }, WATCH_MS);
    },
    async close() {
      clearInterval(watch);
      await customMonitoring.close();
    },
  };
}
