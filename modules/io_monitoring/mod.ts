/**
 * @module
 * IO monitoring (iom): the digital and analog inputs and outputs of the cells' active I/O
 * modules, their newest values and their history; digital state changes are published as
 * `io.stateChanged` events (notifications turn them into IO_MONITORING notifications).
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import type { Db, EventBus, Logger, PlatformModule } from "../../kernel/mod.ts";
import { ioMonitoringRoutes } from "./routes.ts";
import { IoMonitoringService } from "./service.ts";
import { IoStateWatcher } from "./watcher.ts";

export type { IoStateChanged } from "./events.ts";
export type { IoElectricalWorksDto, IoHistoryDto } from "./contract.ts";
export { FRESH_MS, IoStateWatcher } from "./watcher.ts";

/** What IO monitoring needs from the composition root. */
export interface IoMonitoringDeps {
  db: Db;
  analytics: Pick<DuckDBConnection, "runAndReadAll">;
  bus: EventBus;
  logger: Logger;
  /** Called after each commit of the measurement store (MeasurementStore.onSlotsTouched). */
  onCommit: (listener: () => void) => void;
}

/** The module assembled: its routes and the state-change watcher (tests drive it). */
export interface IoMonitoringModule extends PlatformModule {
  watcher: IoStateWatcher;
}

/** Batches with I/O records only do not touch a measurement slot: a scan every 20 s at least. */
const SCAN_INTERVAL_MS = 20_000;

/** Builds the /iom routes; `start()` runs the watcher on the store's commits and every 20 s. */
export function ioMonitoringModule(deps: IoMonitoringDeps): IoMonitoringModule {
  const service = new IoMonitoringService(deps.db, deps.analytics);
  const watcher = new IoStateWatcher(deps);
  let timer: ReturnType<typeof setInterval> | undefined;
  return {
    name: "io_monitoring",
    watcher,
    api: [{ prefix: "/iom", routes: ioMonitoringRoutes(service) }],
    start() {
      deps.onCommit(() => void watcher.poke());
      timer = setInterval(() => void watcher.poke(), SCAN_INTERVAL_MS);
    },
    close() {
      clearInterval(timer);
      return watcher.close();
    },
  };
}
