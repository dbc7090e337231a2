/**
 * @module
 * SCADA connector (scm): profiles of SCADA masters and their point lists (/scm), and the
 * IEC 60870-5-104 server that serves them (one listener per activated profile; docs/scada.md).
 * Master connections and listen failures are published as `scada.connectionChanged`
 * (notifications turn them into CONNECTOR_SCADA notifications).
 */
import type { LatestValues, MeasurementStore } from "../../core/mod.ts";
import type { Db, EventBus, Logger, PlatformModule } from "../../kernel/mod.ts";
import { type CellsService, isMvFeeder, readStructure } from "../grid/mod.ts";
import type { GridStatusService, TopologyCache } from "../monitoring/mod.ts";
import { type GridIndex, ScadaConnector } from "./connector.ts";
import { nodesInOrder } from "./points.ts";
import { POINTS_BODY_LIMIT, scadaRoutes } from "./routes.ts";
import { ScadaService } from "./service.ts";

export type { ScadaConnectionChanged } from "./events.ts";
export type { ProfileDto as ScadaProfileDto } from "./contract.ts";
export { ScadaConnector } from "./connector.ts";

/** What the SCADA connector needs from the composition root. */
export interface ScadaModuleDeps {
  db: Db;
  bus: EventBus;
  logger: Logger;
  cells: Pick<CellsService, "listFor">;
  topology: Pick<TopologyCache, "get">;
  gridStatus: Pick<GridStatusService, "status">;
  store: {
    readonly latest: LatestValues;
    seriesId(cellId: string, feeder: number, phase: number): number | undefined;
    onSlotsTouched: MeasurementStore["onSlotsTouched"];
  };
  /** Address the IEC 104 listeners bind (default all interfaces). */
  host?: string;
}

/** The module assembled: routes, the service and the connector (tests drive them). */
export interface ScadaModule extends PlatformModule {
  service: ScadaService;
  connector: ScadaConnector;
}

/** Builds the SCADA module; `start()` opens the listeners of the activated profiles. */
export function scadaModule(deps: ScadaModuleDeps): ScadaModule {
  const service = new ScadaService(deps.db, {
    structure: (customerKey) => readStructure(deps.db, customerKey),
  });
  const grid = async (customerKey: string): Promise<GridIndex> => {
    const { structure } = await deps.topology.get(customerKey);
    const cellOf = new Map<string, string>();
    for (const cell of await deps.cells.listFor(customerKey, "INSTALLED")) {
      if (cell.node_id && !cell.revoked) cellOf.set(cell.node_id, cell.id);
    }
    const slotOf = new Map<string, number>();
    const lvSlotsOf = new Map<string, number[]>();
    for (const node of nodesInOrder(structure)) {
      for (const f of node.feeders) slotOf.set(f.id, f.slot);
      lvSlotsOf.set(node.id, node.feeders.filter((f) => !isMvFeeder(f)).map((f) => f.slot));
    }
    return { cellOf, slotOf, lvSlotsOf };
  };
  const connector = new ScadaConnector({
    profiles: service,
    grid,
    latest: deps.store.latest,
    seriesId: (cell, slot, phase) => deps.store.seriesId(cell, slot, phase),
    nodeStates: async (customerKey) => {
      const status = await deps.gridStatus.status(customerKey, "LV");
      const states = new Map<string, string>();
      for (const g of status.station_groups) {
        for (const m of g.mv_feeder_groups) {
          for (const l of m.lv_groups) for (const n of l.nodes) states.set(n.id, n.state);
        }
      }
      return states;
    },
    publish: (event) => void deps.bus.publish("scada.connectionChanged", event),
    logger: deps.logger,
    ...(deps.host ? { host: deps.host } : {}),
  });
  service.onChanged((id) => void connector.reload(id));
  const unsubscribe: (() => void)[] = [];
  return {
    name: "scada",
    service,
    connector,
    api: [{
      prefix: "/scm",
      routes: scadaRoutes(service, (key) => ({ listeners: connector.status(key) })),
    }],
    bodyLimits: [POINTS_BODY_LIMIT],
    async start() {
      deps.store.onSlotsTouched(() => connector.valuesCommitted());
      unsubscribe.push(deps.bus.subscribe("monitoring.nodeStateChanged", (e) => {
        if (e.level === "LV") {
          connector.nodeStateChanged(e.customerKey, e.nodeId, e.to, Date.parse(e.at));
        }
      }));
      await connector.start();
    },
    async close() {
      for (const off of unsubscribe) off();
      await connector.close();
    },
  };
}
