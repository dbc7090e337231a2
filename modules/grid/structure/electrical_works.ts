/**
 * The electrical works of a customer: their metering status (Metering Information and the
 * infrastructure setup) and the search by work or node name (spec 9: at least 3 characters, at
 * most 10 results).
 */
import { and, asc, eq, ilike, inArray, or } from "drizzle-orm";
import type { Db } from "../../../kernel/mod.ts";
import { isConnected } from "../cells/cells_setup.ts";
import { cells, feeders, lvGroups, mvFeederGroups, nodes, stationGroups } from "../schema.ts";
import {
  type ElectricalWorkHit,
  type ElectricalWorksStatus,
  type ElectricalWorkStatus,
  isMvFeeder,
  METERING_STATES,
  type MeteringState,
  SEARCH_LIMIT,
} from "./contract.ts";

type WorkRow = {
  node: typeof nodes.$inferSelect;
  lv: { id: string; name: string };
  mv: { id: string; name: string };
  station: { id: string; name: string };
};

function workHit(r: WorkRow): ElectricalWorkHit {
  return {
    node_id: r.node.id,
    node_name: r.node.name,
    key: r.node.electricalWorkKey,
    name: r.node.electricalWorkName,
    type: r.node.electricalWorkType,
    latitude: r.node.latitude,
    longitude: r.node.longitude,
    lv_group: r.lv,
    mv_feeder_group: r.mv,
    station_group: r.station,
  };
}

/** The metering status and search of a customer's electrical works. */
export class ElectricalWorks {
  constructor(private readonly db: Db) {}

  /** The metering status of every electrical work of a customer, with counts per state. */
  async status(customerKey: string, now = Date.now()): Promise<ElectricalWorksStatus> {
    const rows = await this.#works(customerKey);
    const cellRows = await this.db.select().from(cells).where(
      and(eq(cells.customerKey, customerKey), eq(cells.type, "INSTALLED")),
    );
    const cellOf = new Map(cellRows.filter((c) => c.nodeId).map((c) => [c.nodeId!, c]));
    const feederCounts = new Map<string, number>();
    const mvNodes = new Set<string>();
    if (rows.length) {
      const feederRows = await this.db.select({
        nodeId: feeders.nodeId,
        type: feeders.type,
        parameters: feeders.parameters,
      }).from(feeders)
        .where(inArray(feeders.nodeId, rows.map((r) => r.node.id)));
      for (const f of feederRows) {
        feederCounts.set(f.nodeId, (feederCounts.get(f.nodeId) ?? 0) + 1);
        if (isMvFeeder(f)) mvNodes.add(f.nodeId);
      }
    }
    const counts = Object.fromEntries(METERING_STATES.map((s) => [s, 0])) as Record<
      MeteringState,
      number
    >;
    const works: ElectricalWorkStatus[] = rows.map((r) => {
      const cell = cellOf.get(r.node.id);
      const state: MeteringState = !cell
        ? r.node.electricalWorkType === "MV_CABINET" ? "UNMEASURED" : "NO_CELL"
        : !cell.revoked && isConnected(cell.lastSeen ?? null, now)
        ? "CONNECTED"
        : "DISCONNECTED";
      counts[state]++;
      return {
        ...workHit(r),
        feeder_count: feederCounts.get(r.node.id) ?? 0,
        levels: r.node.electricalWorkType === "MV_CABINET"
          ? ["MV"]
          : mvNodes.has(r.node.id)
          ? ["LV", "MV"]
          : ["LV"],
        state,
        last_data_at: cell?.lastSeen?.toISOString() ?? null,
        cell: cell
          ? {
            id: cell.id,
            serial_number: cell.serialNumber,
            status: cell.status,
            gps_fix: cell.gpsFix,
            gsm_signal: cell.gsmSignal,
          }
          : null,
      };
    });
    return { electrical_works: works, counts, generated_at: new Date(now).toISOString() };
  }

  /** Electrical works whose name or node name contains `term` (checked: 3 characters or more). */
  async search(customerKey: string, term: string): Promise<ElectricalWorkHit[]> {
    const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const rows = await this.#works(
      customerKey,
      or(ilike(nodes.electricalWorkName, pattern), ilike(nodes.name, pattern)),
      SEARCH_LIMIT,
    );
    return rows.map(workHit);
  }

  #works(customerKey: string, filter?: ReturnType<typeof or>, limit?: number) {
    const query = this.db.select({
      node: nodes,
      lv: { id: lvGroups.id, name: lvGroups.name },
      mv: { id: mvFeederGroups.id, name: mvFeederGroups.name },
      station: { id: stationGroups.id, name: stationGroups.name },
    }).from(nodes)
      .innerJoin(lvGroups, eq(lvGroups.id, nodes.lvGroupId))
      .innerJoin(mvFeederGroups, eq(mvFeederGroups.id, lvGroups.mvFeederGroupId))
      .innerJoin(stationGroups, eq(stationGroups.id, mvFeederGroups.stationGroupId))
      .where(
        filter
          ? and(eq(stationGroups.customerKey, customerKey), filter)
          : eq(stationGroups.customerKey, customerKey),
      )
      .orderBy(asc(nodes.electricalWorkName), asc(nodes.id));
    return limit ? query.limit(limit) : query;
  }
}
