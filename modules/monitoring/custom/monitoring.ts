/**
 * Custom monitoring of fast current changes (spec 1, 4): manual requests started and stopped on
 * request, automatic triggers evaluated on every stored batch, and the full-resolution values of
 * a request's window. Assembled once by the composition root.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import {
  type CustomMonitoringLimits,
  type MeasurementStore,
  readNodeValues,
  readRawValues,
} from "../../../core/mod.ts";
import type { CellsService } from "../../grid/mod.ts";
import type { Db, EventBus, Logger } from "../../../kernel/mod.ts";
import type { Caller } from "./access.ts";
import { NodeDirectory, type NodeLookup } from "./nodes.ts";
import type { NodeHistory } from "../node_detail.ts";
import { RequestService } from "./requests.ts";
import { TriggerService } from "./triggers.ts";
import { TriggerWatcher } from "./watcher.ts";
import { requestValues, type RequestValuesDto, requestWindow } from "./window.ts";

/** What custom monitoring needs from the composition root. */
export interface CustomMonitoringDeps {
  db: Db;
  cells: CellsService;
  allCustomerKeys: () => Promise<readonly string[]>;
  store: MeasurementStore;
  /** The time-series connection the store writes on (read-only use). */
  connection: DuckDBConnection;
  bus: EventBus;
  logger: Logger;
  /** Defaults: 5 running requests per customer, 100 requests per cell and month. */
  limits?: Partial<CustomMonitoringLimits>;
  now?: () => number;
  /** Node lookups; defaults to the grid module's structure and cells. */
  nodes?: NodeLookup;
}

/** The running custom monitoring of the platform. */
export interface CustomMonitoring {
  readonly requests: RequestService;
  readonly triggers: TriggerService;
  readonly watcher: TriggerWatcher;
  /** The stored values of the nodes (the grid-monitoring node detail reads them too). */
  readonly history: NodeHistory;
  /** The values of a request's window (404 when the request is missing or foreign). */
  values(
    caller: Caller,
    id: string,
    range?: { from?: number | undefined; to?: number | undefined },
  ): Promise<RequestValuesDto>;
  /** Stops evaluating triggers; call before the time-series store closes. */
  close(): Promise<void>;
}

/** Builds the services and starts watching the store for trigger evaluations. */
export async function startCustomMonitoring(deps: CustomMonitoringDeps): Promise<CustomMonitoring> {
  const now = deps.now ?? Date.now;
  const nodes = deps.nodes ?? new NodeDirectory(deps.db, deps.cells, now);
  const requests = new RequestService({
    db: deps.db,
    nodes,
    allCustomerKeys: deps.allCustomerKeys,
    ...(deps.limits ? { limits: deps.limits } : {}),
    now,
  });
  const triggers = new TriggerService(deps.db, requests, now);
  const read = (ids: readonly number[], from: number, to: number) =>
    readRawValues(deps.connection, ids, from, to);
  const watcher = new TriggerWatcher({
    requests,
    triggers,
    nodes,
    store: deps.store,
    read,
    bus: deps.bus,
    logger: deps.logger,
    now,
  });
  await watcher.start();
  return {
    requests,
    triggers,
    watcher,
    history: {
      seriesId: (cell, feeder, phase) => deps.store.seriesId(cell, feeder, phase),
      latest: deps.store.latest,
      readRaw: read,
      readGrid: (ids, from, to) => readNodeValues(deps.connection, ids, from, to),
    },
    async values(caller, id, range) {
      const { request, node } = await requests.withNode(caller, id);
      const window = requestWindow(request, now(), range);
      const store = deps.store;
      const seriesId = (cell: string, feeder: number, phase: number) =>
        store.seriesId(cell, feeder, phase);
      return await requestValues({ seriesId, read }, request, node, window);
    },
    close: () => watcher.close(),
  };
}
