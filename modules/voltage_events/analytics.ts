/**
 * Reads of the time-series store's `voltage_events` table (written by the ingestion path,
 * core/ingest/store.ts): the events of a set of cells under a filter, counted and paged in SQL;
 * the tolerance-curve filter runs on the rows (the contract's `insideCurve`).
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { type EventFilter, type EventKind, insideCurve } from "./contract.ts";

/** An event row as stored (no trace). */
export interface EventRow {
  cellId: string;
  eventId: string;
  type: string;
  kind: EventKind;
  startMs: number;
  endMs: number;
  startPhase: string | null;
  endPhase: string | null;
  extremePct: number | null;
  deltaUPct: number | null;
  tableCell: string | null;
}

export type Analytics = Pick<DuckDBConnection, "runAndReadAll">;

const quote = (s: string) => `'${s.replaceAll("'", "''")}'`;
const tsMs = (ms: number) => `make_timestamp(${Math.floor(ms) * 1000})`;
const KIND = "coalesce(kind, type)";
const DURATION = "(epoch_ms(end_ts) - epoch_ms(start_ts))";
/** Mirrors {@link depthOf}. */
const DEPTH = `CASE WHEN ${KIND} = 'SWELL' THEN extreme_pct - 100
  WHEN ${KIND} = 'RVC' THEN abs(delta_u_pct)
  WHEN ${KIND} = 'MSV' THEN NULL ELSE 100 - extreme_pct END`;
const COLUMNS = `cell_id, event_id, type, ${KIND}, epoch_ms(start_ts), epoch_ms(end_ts),
  start_phase, end_phase, extreme_pct, delta_u_pct, table_cell`;

/** How far an event's extreme is from Uref, in %: the filter's "depth". */
export function depthOf(kind: string, extremePct: number | null, deltaUPct: number | null) {
  if (kind === "RVC") return deltaUPct === null ? null : Math.abs(deltaUPct);
  if (kind === "MSV" || extremePct === null) return null;
  return kind === "SWELL" ? extremePct - 100 : 100 - extremePct;
}

/** The WHERE clause of a filter over `cells` (the node filter is resolved to its cell). */
function where(cells: readonly string[], f: EventFilter): string {
  const parts = [`cell_id IN (${cells.map(quote).join(",")})`];
  if (f.type === "INTERRUPTION") parts.push(`${KIND} LIKE 'INTERRUPTION%'`);
  else if (f.type) parts.push(`${KIND} = ${quote(f.type)}`);
  if (f.phase) parts.push(`(start_phase = ${quote(f.phase)} OR end_phase = ${quote(f.phase)})`);
  if (f.from) parts.push(`start_ts >= ${tsMs(Date.parse(f.from))}`);
  if (f.to) parts.push(`start_ts < ${tsMs(Date.parse(f.to))}`);
  if (f.depth_min !== undefined) parts.push(`(${DEPTH}) >= ${Number(f.depth_min)}`);
  if (f.depth_max !== undefined) parts.push(`(${DEPTH}) <= ${Number(f.depth_max)}`);
  if (f.duration_min_ms !== undefined) parts.push(`${DURATION} >= ${Number(f.duration_min_ms)}`);
  if (f.duration_max_ms !== undefined) parts.push(`${DURATION} <= ${Number(f.duration_max_ms)}`);
  if (f.curve) {
    parts.push(`${KIND} IN ('DIP', 'SWELL', 'INTERRUPTION_SHORT', 'INTERRUPTION_LONG')
    AND extreme_pct IS NOT NULL`);
  }
  return parts.join(" AND ");
}

const round2 = (v: number | null) => v === null ? null : Math.round(v * 100) / 100;

function toRow(r: unknown[]): EventRow {
  return {
    cellId: r[0] as string,
    eventId: r[1] as string,
    type: r[2] as string,
    kind: r[3] as EventKind,
    startMs: Number(r[4]),
    endMs: Number(r[5]),
    startPhase: r[6] as string | null,
    endPhase: r[7] as string | null,
    extremePct: round2(r[8] as number | null),
    deltaUPct: round2(r[9] as number | null),
    tableCell: r[10] as string | null,
  };
}

/** Whether a row passes the filter's curve condition (rows without one always pass). */
export function passesCurve(row: EventRow, f: EventFilter): boolean {
  if (!f.curve || row.extremePct === null) return !f.curve;
  const inside = insideCurve(f.curve, row.extremePct / 100, (row.endMs - row.startMs) / 1000);
  return (f.side ?? "OUTSIDE") === "INSIDE" ? inside : !inside;
}

/** Most rows a curve filter reads to page in memory. */
const CURVE_SCAN_LIMIT = 200_000;

/** One page of the events matching `f` (newest first) and the number matching. */
export async function eventPage(
  analytics: Analytics,
  cells: readonly string[],
  f: EventFilter,
  offset: number,
  limit: number,
): Promise<{ rows: EventRow[]; total: number }> {
  if (!cells.length) return { rows: [], total: 0 };
  const clause = where(cells, f);
  const order = "ORDER BY start_ts DESC, cell_id, event_id";
  if (f.curve) {
    const all = (await analytics.runAndReadAll(
      `SELECT ${COLUMNS} FROM voltage_events WHERE ${clause} ${order} LIMIT ${CURVE_SCAN_LIMIT}`,
    )).getRows().map(toRow).filter((r) => passesCurve(r, f));
    return { rows: all.slice(offset, offset + limit), total: all.length };
  }
  const [count] = (await analytics.runAndReadAll(
    `SELECT count(*) FROM voltage_events WHERE ${clause}`,
  )).getRows();
  const rows = (await analytics.runAndReadAll(
    `SELECT ${COLUMNS} FROM voltage_events WHERE ${clause} ${order}
     LIMIT ${limit} OFFSET ${offset}`,
  )).getRows().map(toRow);
  return { rows, total: Number(count?.[0] ?? 0) };
}

/** Every event matching `f`, newest first, at most `limit` (for the tables and the plot). */
export async function matchingEvents(
  analytics: Analytics,
  cells: readonly string[],
  f: EventFilter,
  limit: number,
): Promise<EventRow[]> {
  if (!cells.length) return [];
  return (await analytics.runAndReadAll(
    `SELECT ${COLUMNS} FROM voltage_events WHERE ${where(cells, f)}
     ORDER BY start_ts DESC LIMIT ${limit}`,
  )).getRows().map(toRow).filter((r) => passesCurve(r, f));
}

/** One event and its stored RMS trace (JSON text as uploaded), or `null`. */
export async function eventWithTrace(
  analytics: Analytics,
  cellId: string,
  eventId: string,
): Promise<{ row: EventRow; trace: string | null } | null> {
  const [r] = (await analytics.runAndReadAll(
    `SELECT ${COLUMNS}, rms_trace FROM voltage_events
     WHERE cell_id = ${quote(cellId)} AND event_id = ${quote(eventId)}`,
  )).getRows();
  return r ? { row: toRow(r), trace: r[11] as string | null } : null;
}

/** Events per cell since `sinceMs` and each cell's newest event time. */
export async function countsPerCell(
  analytics: Analytics,
  cells: readonly string[],
  sinceMs: number,
): Promise<Map<string, { count: number; last: number | null }>> {
  const out = new Map<string, { count: number; last: number | null }>();
  if (!cells.length) return out;
  const rows = (await analytics.runAndReadAll(
    `SELECT cell_id, count(*) FILTER (WHERE start_ts >= ${tsMs(sinceMs)}), epoch_ms(max(start_ts))
     FROM voltage_events WHERE cell_id IN (${cells.map(quote).join(",")}) GROUP BY cell_id`,
  )).getRows();
  for (const [cell, count, last] of rows) {
    out.set(cell as string, { count: Number(count), last: last === null ? null : Number(last) });
  }
  return out;
}

/** The stored events of (cell, event id) pairs. */
export async function eventsByIds(
  analytics: Analytics,
  pairs: readonly { cellId: string; eventId: string }[],
): Promise<EventRow[]> {
  if (!pairs.length) return [];
  const list = pairs.map((p) => `(${quote(p.cellId)}, ${quote(p.eventId)})`).join(",");
  return (await analytics.runAndReadAll(
    `SELECT ${COLUMNS} FROM voltage_events WHERE (cell_id, event_id) IN (${list})`,
  )).getRows().map(toRow);
}
