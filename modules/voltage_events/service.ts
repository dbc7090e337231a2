/**
 * Power-quality events of a customer: which cells belong to it (the cells installed at its
 * nodes; a foreign or unknown event answers the same 404 as a missing one), the events list,
 * detail, EN 50160 tables and magnitude-duration points over the time-series store.
 */
import { and, inArray } from "drizzle-orm";
import type { CellsService, StationGroupDto } from "../grid/mod.ts";
import { AppError, type Db } from "../../kernel/mod.ts";
import {
  type Analytics,
  countsPerCell,
  depthOf,
  eventPage,
  type EventRow,
  eventsByIds,
  eventWithTrace,
  matchingEvents,
} from "./analytics.ts";
import {
  DIP_COLUMN_IDS,
  DIP_ROW_IDS,
  type EventDetailDto,
  type EventDto,
  type EventFilter,
  type EventListQuery,
  type EventPageDto,
  type EventPointsDto,
  EVENTS_PAGE_SIZE,
  type EventTablesDto,
  type EventWorksDto,
  type GridEventPageDto,
  type GridEventsQuery,
  MAX_PLOT_POINTS,
  type RecordingStateDto,
  SWELL_COLUMN_IDS,
  SWELL_ROW_IDS,
} from "./contract.ts";
import { tableCellOf, typeOfKind } from "./classification.ts";
import { gridEventPage } from "./grid_event_page.ts";
import { type CellPlace, cellPlaces } from "./places.ts";
import { eventKey, parseEventKey } from "./keys.ts";
import { recordings } from "./schema.ts";

export type { CellPlace } from "./places.ts";

/** A node's events over a report period (`VoltageEventsService.periodEvents`). */
export interface PeriodEvents {
  tables: EventTablesDto;
  /** The newest events of the period (at most the limit asked for), oldest first. */
  events: EventDto[];
  /** Events of the period in all. */
  total: number;
}

/** What the service reads besides the time-series store. */
export interface VoltageEventsDeps {
  db: Db;
  analytics: Analytics;
  /** The customer's current grid structure (monitoring's topology cache). */
  structure: (customerKey: string) => Promise<readonly StationGroupDto[]>;
  cells: Pick<CellsService, "listFor">;
  /** The customer's LV nominal phase voltage in V (230 by default). */
  nominalVoltage: (customerKey: string) => Promise<number>;
  now?: () => number;
}

const DAY_MS = 86_400_000;
/** Most events the tables count. */
const TABLE_SCAN_LIMIT = 500_000;

const phaseOf = (p: string | null) => p === "L1" || p === "L2" || p === "L3" ? p : null;
const round2 = (v: number | null) => v === null ? null : Math.round(v * 100) / 100;

export class VoltageEventsService {
  readonly #now: () => number;

  constructor(private readonly deps: VoltageEventsDeps) {
    this.#now = deps.now ?? Date.now;
  }

  /** The customer's cells installed at a node, with their places. */
  async places(customerKey: string): Promise<Map<string, CellPlace>> {
    return cellPlaces(
      await this.deps.structure(customerKey),
      await this.deps.cells.listFor(customerKey, "INSTALLED"),
    );
  }

  /** The cells a filter reads: one node's (none when it has no cell) or every one. */
  async #cellsOf(customerKey: string, f: EventFilter) {
    const places = await this.places(customerKey);
    const cells = f.node
      ? [...places.values()].filter((p) => p.nodeId === f.node).map((p) => p.cellId)
      : [...places.keys()];
    return { places, cells };
  }

  /** GET /pqe/electrical-works: works with their nodes and last 30 days' event counts. */
  async works(customerKey: string): Promise<EventWorksDto> {
    const structure = await this.deps.structure(customerKey);
    const places = await this.places(customerKey);
    const cellOfNode = new Map([...places.values()].map((p) => [p.nodeId, p.cellId]));
    const counts = await countsPerCell(
      this.deps.analytics,
      [...places.keys()],
      this.#now() - 30 * DAY_MS,
    );
    const works = new Map<string, EventWorksDto["electrical_works"][number]>();
    for (const g of structure) {
      for (const m of g.mv_feeder_groups) {
        for (const lv of m.lv_groups) {
          for (const node of lv.nodes) {
            const ew = node.electrical_work;
            let work = works.get(ew.key);
            if (!work) {
              work = { key: ew.key, name: ew.name, type: ew.type, lv_group: lv.name, nodes: [] };
              works.set(ew.key, work);
            }
            const cellId = cellOfNode.get(node.id) ?? null;
            const c = cellId ? counts.get(cellId) : undefined;
            work.nodes.push({
              id: node.id,
              name: node.name,
              cell_id: cellId,
              events_30d: c?.count ?? 0,
              last_event: c?.last ? new Date(c.last).toISOString() : null,
            });
          }
        }
      }
    }
    return {
      electrical_works: [...works.values()].sort((a, b) => a.name.localeCompare(b.name)),
    };
  }

  /** GET /pqe/events: one page of events, newest first. */
  async list(customerKey: string, q: EventListQuery): Promise<EventPageDto> {
    const page = q.page ?? 1;
    const { places, cells } = await this.#cellsOf(customerKey, q);
    const { rows, total } = await eventPage(
      this.deps.analytics,
      cells,
      q,
      (page - 1) * EVENTS_PAGE_SIZE,
      EVENTS_PAGE_SIZE,
    );
    const states = await this.recordingStates(rows);
    return {
      events: rows.map((r) => this.#dto(r, places, states)),
      page,
      page_size: EVENTS_PAGE_SIZE,
      total,
    };
  }

  /** GET /pqe/events/{key}: the event with its RMS trace; 404 for a foreign or unknown key. */
  async detail(customerKey: string, key: string): Promise<EventDetailDto> {
    const { row, trace, places } = await this.find(customerKey, key);
    const states = await this.recordingStates([row]);
    let parsed: EventDetailDto["trace"] = null;
    if (trace) {
      try {
        const t = JSON.parse(trace) as { interval_ms: number; values_pct: number[] };
        // The simulator and real cells start the trace two values before the event.
        const lead = t.values_pct.length > 4 ? 2 : 0;
        parsed = {
          start: new Date(row.startMs - lead * t.interval_ms).toISOString(),
          interval_ms: t.interval_ms,
          values_pct: t.values_pct,
        };
      } catch {
        parsed = null; // validated at ingestion; a broken trace shows no chart, not a 500
      }
    }
    return {
      event: this.#dto(row, places, states),
      trace: parsed,
      nominal_voltage: await this.deps.nominalVoltage(customerKey),
    };
  }

  /** The event of a key within the customer's cells, or 404. */
  async find(customerKey: string, key: string) {
    const parsed = parseEventKey(key);
    if (!parsed) throw new AppError("common.notFound");
    const places = await this.places(customerKey);
    if (!places.has(parsed.cellId)) throw new AppError("common.notFound");
    const found = await eventWithTrace(this.deps.analytics, parsed.cellId, parsed.eventId);
    if (!found) throw new AppError("common.notFound");
    return { ...found, places, place: places.get(parsed.cellId)! };
  }

  /** GET /pqe/events/tables: counts per EN 50160 dip and swell table cell. */
  async tables(customerKey: string, f: EventFilter): Promise<EventTablesDto> {
    const { cells } = await this.#cellsOf(customerKey, f);
    const rows = await matchingEvents(this.deps.analytics, cells, f, TABLE_SCAN_LIMIT);
    const grid = (rowIds: readonly string[], columnIds: readonly string[]) =>
      Object.fromEntries(rowIds.map((r) => [r, Object.fromEntries(columnIds.map((c) => [c, 0]))]));
    const out: EventTablesDto = {
      dip: grid(DIP_ROW_IDS, DIP_COLUMN_IDS),
      swell: grid(SWELL_ROW_IDS, SWELL_COLUMN_IDS),
      interruptions_short: 0,
      interruptions_long: 0,
      outside_tables: 0,
      rvc: 0,
      msv: 0,
    };
    for (const r of rows) {
      if (r.kind === "INTERRUPTION_LONG") out.interruptions_long++;
      else if (r.kind === "RVC") out.rvc++;
      else if (r.kind === "MSV") out.msv++;
      else {
        if (r.kind === "INTERRUPTION_SHORT") out.interruptions_short++;
        const cell = tableCellOf(r.tableCell);
        const table = cell ? (cell.table === "DIP" ? out.dip : out.swell) : null;
        const counts = cell && table ? table[cell.row] : undefined;
        if (cell && counts && cell.column in counts) counts[cell.column]!++;
        else if (r.kind !== "INTERRUPTION_SHORT") out.outside_tables++;
      }
    }
    return out;
  }

  /**
   * The events of one node in `[from, to)` for a power-quality report: the EN 50160 tables of
   * all of them and the newest `limit` events, oldest first, with how many there are.
   */
  async periodEvents(
    customerKey: string,
    nodeId: string,
    from: Date,
    to: Date,
    limit: number,
  ): Promise<PeriodEvents> {
    const f: EventFilter = { node: nodeId, from: from.toISOString(), to: to.toISOString() };
    const { places, cells } = await this.#cellsOf(customerKey, f);
    const tables = await this.tables(customerKey, f);
    const { rows, total } = await eventPage(this.deps.analytics, cells, f, 0, limit);
    const states = await this.recordingStates(rows);
    return { tables, events: rows.reverse().map((r) => this.#dto(r, places, states)), total };
  }

  /** GET /pqe/events/points: the magnitude-duration plot's points. */
  async points(customerKey: string, f: EventFilter): Promise<EventPointsDto> {
    const { cells } = await this.#cellsOf(customerKey, f);
    const magnitude = f.type && ["RVC", "MSV"].includes(f.type) ? null : f;
    if (!magnitude) return { points: [], truncated: false };
    const rows = (await matchingEvents(this.deps.analytics, cells, f, MAX_PLOT_POINTS + 1))
      .filter((r) => r.extremePct !== null && !["RVC", "MSV"].includes(r.kind));
    return {
      points: rows.slice(0, MAX_PLOT_POINTS).map((r) => ({
        key: eventKey(r.cellId, r.eventId),
        kind: r.kind,
        duration_ms: r.endMs - r.startMs,
        extreme_pct: r.extremePct!,
      })),
      truncated: rows.length > MAX_PLOT_POINTS,
    };
  }

  /**
   * GET /pqe/grid-events: dips, swells and interruptions of different cells within one second,
   * grouped, newest first, 12 per page; MV when every measured node of one MV feeder group saw it.
   */
  async gridEvents(customerKey: string, q: GridEventsQuery): Promise<GridEventPageDto> {
    const page = q.page ?? 1;
    const to = q.to ?? new Date(this.#now()).toISOString();
    const from = q.from ?? new Date(Date.parse(to) - 30 * DAY_MS).toISOString();
    const places = await this.places(customerKey);
    const rows = (await matchingEvents(
      this.deps.analytics,
      [...places.keys()],
      { from, to },
      TABLE_SCAN_LIMIT,
    )).filter((r) => r.kind !== "RVC" && r.kind !== "MSV");
    return gridEventPage(rows, places, page);
  }

  /** A stored event, or `null`. */
  async rowOf(cellId: string, eventId: string): Promise<EventRow | null> {
    return (await eventWithTrace(this.deps.analytics, cellId, eventId))?.row ?? null;
  }

  /** The answers' events of (cell, event id) pairs at the customer's cells, by `cell|event`. */
  async dtos(
    pairs: readonly { cellId: string; eventId: string }[],
    places: Map<string, CellPlace>,
  ): Promise<Map<string, EventDto>> {
    const rows = (await eventsByIds(this.deps.analytics, pairs)).filter((r) =>
      places.has(r.cellId)
    );
    const states = await this.recordingStates(rows);
    return new Map(rows.map((r) => [`${r.cellId}|${r.eventId}`, this.#dto(r, places, states)]));
  }

  /** The recording states of rows, by `cell|event`. */
  async recordingStates(
    rows: readonly Pick<EventRow, "cellId" | "eventId">[],
  ): Promise<Map<string, RecordingStateDto>> {
    const out = new Map<string, RecordingStateDto>();
    if (!rows.length) return out;
    const found = await this.deps.db.select().from(recordings).where(and(
      inArray(recordings.cellId, [...new Set(rows.map((r) => r.cellId))]),
      inArray(recordings.eventId, rows.map((r) => r.eventId)),
    ));
    for (const r of found) {
      out.set(`${r.cellId}|${r.eventId}`, {
        status: r.status,
        code: r.code,
        requested_at: r.requestedAt.toISOString(),
        updated_at: r.updatedAt.toISOString(),
      });
    }
    return out;
  }

  /** The answer's event. */
  dto(row: EventRow, place: CellPlace, recording: RecordingStateDto | null): EventDto {
    return {
      key: eventKey(row.cellId, row.eventId),
      event_id: row.eventId,
      cell_id: row.cellId,
      node_id: place.nodeId,
      node_name: place.nodeName,
      ew_name: place.ewName,
      type: typeOfKind(row.kind),
      kind: row.kind,
      start: new Date(row.startMs).toISOString(),
      end: new Date(row.endMs).toISOString(),
      duration_ms: row.endMs - row.startMs,
      start_phase: phaseOf(row.startPhase),
      end_phase: phaseOf(row.endPhase),
      extreme_pct: row.extremePct,
      delta_u_pct: row.deltaUPct,
      depth_pct: round2(depthOf(row.kind, row.extremePct, row.deltaUPct)),
      table_cell: tableCellOf(row.tableCell),
      recording,
    };
  }

  #dto(row: EventRow, places: Map<string, CellPlace>, states: Map<string, RecordingStateDto>) {
    return this.dto(
      row,
      places.get(row.cellId)!,
      states.get(`${row.cellId}|${row.eventId}`) ?? null,
    );
  }
}
