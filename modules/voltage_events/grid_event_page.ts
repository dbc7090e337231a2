/**
 * One page of time-correlated grid events (`GET /pqe/grid-events`): the period's events of the
 * customer's cells grouped by `correlate` (grid_events.ts), newest first, 12 per page, each
 * node at its place with the depth of its event. Pure.
 */
import { depthOf, type EventRow } from "./analytics.ts";
import { EVENTS_PAGE_SIZE, type GridEventPageDto } from "./contract.ts";
import { correlate } from "./grid_events.ts";
import { eventKey } from "./keys.ts";
import type { CellPlace } from "./places.ts";

const round2 = (v: number | null) => v === null ? null : Math.round(v * 100) / 100;

/** Page `page` (1-based) of the grid events of `rows` (events of cells in `places`). */
export function gridEventPage(
  rows: readonly EventRow[],
  places: ReadonlyMap<string, CellPlace>,
  page: number,
): GridEventPageDto {
  const mvGroups = new Map<string, Set<string>>();
  for (const p of places.values()) {
    const members = mvGroups.get(p.mvGroupId) ?? new Set<string>();
    members.add(p.nodeId);
    mvGroups.set(p.mvGroupId, members);
  }
  const groups = correlate(
    rows.map((r) => ({
      row: r,
      key: eventKey(r.cellId, r.eventId),
      cellId: r.cellId,
      nodeId: places.get(r.cellId)!.nodeId,
      kind: r.kind,
      startMs: r.startMs,
      depthPct: round2(depthOf(r.kind, r.extremePct, r.deltaUPct)),
    })),
    mvGroups,
  );
  const mvName = new Map([...places.values()].map((p) => [p.mvGroupId, p.mvGroupName]));
  return {
    grid_events: groups.slice((page - 1) * EVENTS_PAGE_SIZE, page * EVENTS_PAGE_SIZE).map((
      g,
    ) => ({
      start: new Date(g.startMs).toISOString(),
      origin: g.origin,
      mv_feeder_group: g.mvGroupId ? mvName.get(g.mvGroupId) ?? null : null,
      nodes: g.events.map((e) => {
        const place = places.get(e.cellId)!;
        return {
          key: e.key,
          node_id: place.nodeId,
          node_name: place.nodeName,
          latitude: place.latitude,
          longitude: place.longitude,
          kind: e.row.kind,
          start: new Date(e.startMs).toISOString(),
          depth_pct: e.depthPct,
        };
      }),
    })),
    page,
    page_size: EVENTS_PAGE_SIZE,
    total: groups.length,
  };
}
