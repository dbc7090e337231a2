/**
 * @module
 * IO monitoring (iom): the digital and analog inputs and outputs of the cells' active I/O
 * modules, their newest values and their history; digital state changes are published as
 * `io.stateChanged` events (notifications turn them into IO_MONITORING notifications).
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import type { Hono } from "hono";
import type { AppEnv, Db, EventBus, Logger } from "../../kernel/mod.ts";
import { type CustomerOf, ioMonitoringRoutes } from "./routes.ts";
import { IoMonitoringService } from "./service.ts";
import { IoStateWatcher } from "./watcher.ts";

export type { IoStateChanged } from "./events.ts";
export type { IoElectricalWorksAnswer, IoHistoryAnswer } from "./service.ts";
export { FRESH_MS, IoStateWatcher } from "./watcher.ts";

export interface IoMonitoringDeps {
  db: Db;
  analytics: Pick<DuckDBConnection, "runAndReadAll">;
  bus: EventBus;
  logger: Logger;
  customerOf: CustomerOf;
  /** Called after each commit of the measurement store (MeasurementStore.onSlotsTouched). */
  onCommit: (listener: () => void) => void;
}

/** The module assembled: its routes and the state-change watcher. */
export interface IoMonitoring {
  routes: Hono<AppEnv>;
  watcher: IoStateWatcher;
  close(): Promise<void>;
}

/** Batches with I/O records only do not touch a measurement slot: a scan every 20 s at least. */
const SCAN_INTERVAL_MS = 20_000;

/** Builds the routes and starts the watcher on the store's commits (and every 20 s). */
export function createIoMonitoring(deps: IoMonitoringDeps): IoMonitoring {
  const service = new IoMonitoringService(deps.db, deps.analytics);
  const watcher = new IoStateWatcher(deps);
  deps.onCommit(() => void watcher.poke());
  const timer = setInterval(() => void watcher.poke(), SCAN_INTERVAL_MS);
  return {
    routes: ioMonitoringRoutes(service, deps.customerOf),
    watcher,
    close: () => {
      clearInterval(timer);
      return watcher.close();
    },
  };
}
