/**
 * The full-resolution values of a request's window: the 20-s voltage and current of each feeder
 * and phase of the node (or of the one feeder asked for), read from the time-series store.
 */
import type { RawSeries } from "../../../core/mod.ts";
import type { MonitoredNode } from "./nodes.ts";
import { PHASES, type RequestDto, type RequestValuesDto } from "../contract.ts";

/** At most this much of a window is answered at once: the longest finite duration, 1440 min. */
export const MAX_WINDOW_MS = 1440 * 60_000;

export type { RequestValuesDto };

export interface WindowDeps {
  seriesId(cellId: string, feeder: number, phase: number): number | undefined;
  read(seriesIds: readonly number[], from: number, to: number): Promise<Map<number, RawSeries>>;
}

/**
 * The window of `request`: from its start to its stop or end (`now` for a request without end
 * still running), narrowed to `range` when given, and to its newest {@link MAX_WINDOW_MS} when
 * longer (a request without end).
 */
export function requestWindow(
  request: RequestDto,
  now: number,
  range: { from?: number | undefined; to?: number | undefined } = {},
): { from: number; to: number } {
  const end = request.stopped_at ?? request.ends_at;
  const to = Math.min(end === null ? now : Date.parse(end), range.to ?? Infinity);
  let from = Math.max(Date.parse(request.started_at), range.from ?? -Infinity);
  if (to - from > MAX_WINDOW_MS) from = to - MAX_WINDOW_MS;
  return { from: Math.min(from, to), to };
}

/**
 * Reads the values of `request` on `node`, with its feeders as configured now (none when the
 * node no longer exists).
 */
export async function requestValues(
  deps: WindowDeps,
  request: RequestDto,
  node: MonitoredNode | null,
  window: { from: number; to: number },
): Promise<RequestValuesDto> {
  const feeders = (node?.feeders ?? []).filter((f) =>
    request.feeder_id === null || f.id === request.feeder_id
  );
  const ids = feeders.map((f) =>
    PHASES.map((_, phase) => deps.seriesId(request.cell_id, f.slot, phase))
  );
  const values = await deps.read(
    ids.flat().filter((id): id is number => id !== undefined),
    window.from,
    window.to,
  );
  const empty: RawSeries = { ts: [], u: [], i: [] };
  return {
    request_id: request.id,
    node_id: request.node_id,
    from: new Date(window.from).toISOString(),
    to: new Date(window.to).toISOString(),
    interval_s: 20,
    feeders: feeders.map((f, k) => ({
      id: f.id,
      slot: f.slot,
      name: f.name,
      level: f.level,
      phases: PHASES.flatMap((phase, p) => {
        const id = ids[k]![p];
        if (phase === "N" && id === undefined) return [];
        const s = (id === undefined ? undefined : values.get(id)) ?? empty;
        return [{ phase, t: s.ts, u: phase === "N" ? s.u.map(() => null) : s.u, i: s.i }];
      }),
    })),
  };
}
