/**
 * What reports read of the rest of the platform: the customer's nodes (monitoring's topology
 * cache), the cell installed at each node (grid), the series its feeders write to (the core's
 * store), the first stored 10-minute value, and the customer's nominal values.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import type { MeasurementStore } from "../../core/mod.ts";
import type { CustomerDto } from "../customers/mod.ts";
import type { Db } from "../../kernel/mod.ts";
import {
  allNodes,
  type CellsService,
  type NodeDto,
  readStructure,
  type StationGroupDto,
} from "../grid/mod.ts";
import { nominalVoltage } from "../monitoring/mod.ts";
import type { PeriodEvents } from "../voltage_events/mod.ts";
import type { CustomerFormats } from "./pdf_format.ts";

import type { ReportFeeder } from "./schema.ts";

/** The nominal values and names a report needs of its customer. */
export interface CustomerFacts {
  name: string;
  /** Phase-to-neutral nominal voltage of LV feeders, V. */
  nominalVoltage: number;
  /** Phase-to-neutral nominal voltage of MV feeders (MV lines, MV estimation), V. */
  nominalVoltageMv: number;
  nominalFrequency: 50 | 60;
  timezone: string;
  /**
   * Date, time and number formats and time zone of Global Settings (the PDF writes in them);
   * absent: ISO dates, 24 h, no group separator, in `timezone`.
   */
  formats?: CustomerFormats;
}

/** The customer's logo (Global Settings), PNG or JPEG. */
export interface CustomerLogo {
  contentType: string;
  data: Uint8Array;
}

/** The nominal phase voltage a feeder is evaluated against (MV feeders: the MV nominal). */
export function feederNominal(customer: CustomerFacts, feeder: { level?: "LV" | "MV" }): number {
  return feeder.level === "MV" ? customer.nominalVoltageMv : customer.nominalVoltage;
}

/** Reads of other modules, behind one interface (tests give their own). */
export interface ReportDirectory {
  nodes(customerKey: string): Promise<NodeDto[]>;
  node(customerKey: string, id: string): Promise<NodeDto | null>;
  /**
   * The node as the grid holds it now (the topology cache may be 30 s behind): what creating
   * and running a report check (506, 508, 514). Absent: `node`.
   */
  freshNode?(customerKey: string, id: string): Promise<NodeDto | null>;
  /** Installed, not revoked cells by node id. */
  cellsByNode(customerKey: string): Promise<Map<string, string>>;
  /** Series ids of L1..L3 of a feeder of a cell (undefined: never reported). */
  series(cellId: string, slot: number): (number | undefined)[];
  /** Epoch ms of the feeders' first stored 10-minute value, or null when there is none. */
  firstData(cellId: string, feeders: readonly ReportFeeder[]): Promise<number | null>;
  customer(customerKey: string): Promise<CustomerFacts>;
  /** The customer's logo for the cover; null when none is set. */
  logo?(customerKey: string): Promise<CustomerLogo | null>;
  /** The node's voltage events in `[from, to)`: tables and the newest `limit` events. */
  events?(
    customerKey: string,
    nodeId: string,
    from: Date,
    to: Date,
    limit: number,
  ): Promise<PeriodEvents>;
}

/** What {@link platformDirectory} reads. */
export interface DirectoryDeps {
  topology: { get(customerKey: string): Promise<{ structure: readonly StationGroupDto[] }> };
  cells: Pick<CellsService, "listFor">;
  store: Pick<MeasurementStore, "seriesId">;
  analytics: DuckDBConnection;
  customers: {
    getByKey(key: string): Promise<CustomerDto | null>;
    logoByKey?(key: string): Promise<CustomerLogo | null>;
  };
  /** The voltage events module's read of a node's events over a period. */
  periodEvents?: ReportDirectory["events"];
  /** The relational database, for the fresh read of a node's structure. */
  db?: Db;
}

/** The directory over the platform's facades. */
export function platformDirectory(deps: DirectoryDeps): ReportDirectory {
  const directory: ReportDirectory = {
    async nodes(customerKey) {
      return allNodes((await deps.topology.get(customerKey)).structure);
    },
    async node(customerKey, id) {
      return (await directory.nodes(customerKey)).find((n) => n.id === id) ?? null;
    },
    async freshNode(customerKey, id) {
      if (!deps.db) return await directory.node(customerKey, id);
      return allNodes(await readStructure(deps.db, customerKey)).find((n) => n.id === id) ?? null;
    },
    async cellsByNode(customerKey) {
      const map = new Map<string, string>();
      for (const cell of await deps.cells.listFor(customerKey, "INSTALLED")) {
        if (cell.node_id && !cell.revoked) map.set(cell.node_id, cell.id);
      }
      return map;
    },
    series(cellId, slot) {
      return [0, 1, 2].map((phase) => deps.store.seriesId(cellId, slot, phase));
    },
    async firstData(cellId, feeders) {
      const ids = feeders.flatMap((f) => directory.series(cellId, f.slot))
        .filter((id): id is number => id !== undefined);
      if (!ids.length) return null;
      const result = await deps.analytics.run(
        `SELECT epoch_ms(min(slot))::DOUBLE FROM agg_10min WHERE series_id IN (${ids.join(",")})`,
      );
      const value = (await result.getRows())[0]?.[0];
      return typeof value === "number" ? value : null;
    },
    async customer(customerKey) {
      const customer = await deps.customers.getByKey(customerKey);
      if (!customer) throw new Error(`Unknown customer ${customerKey}`);
      return {
        name: customer.name,
        nominalVoltage: nominalVoltage(customer, "LV"),
        nominalVoltageMv: nominalVoltage(customer, "MV"),
        nominalFrequency: customer.default_frequency === 60 ? 60 : 50,
        timezone: customer.default_timezone ?? "UTC",
        formats: {
          dateFormat: customer.default_date_format,
          timeFormat: customer.default_time_format,
          numberFormat: customer.default_number_format,
          timezone: customer.default_timezone ?? "UTC",
        },
      };
    },
    async logo(customerKey) {
      return (await deps.customers.logoByKey?.(customerKey)) ?? null;
    },
    ...(deps.periodEvents ? { events: deps.periodEvents } : {}),
  };
  return directory;
}
