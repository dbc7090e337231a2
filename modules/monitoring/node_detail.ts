/**
 * One node of the grid-monitoring screen (GET /evm/grid-monitoring/nodes/{id}): its state from
 * the evaluation that answers the grid status, per feeder and phase the latest values, and its
 * warnings with the time each began, derived from the stored 20-s values (right after a restart
 * too); and its history (GET .../nodes/{id}/values) on a regular grid with gaps as nulls.
 */
import {
  NODE_PERIOD_MAX_DAYS,
  NODE_PERIOD_MIN_MS,
  type NodeValues,
  phaseState,
  type RawSeries,
  runStart,
} from "../../core/mod.ts";
import { AppError } from "../../kernel/mod.ts";
import {
  type NodeDetailDto,
  type NodeValuesDto,
  type NodeWarningDto,
  type Phase,
  PHASES,
} from "./contract.ts";
import type { Level, NodeEvaluation } from "./service.ts";

export type { NodeDetailDto, NodeValuesDto, NodeWarningDto, Phase };
const NEUTRAL = 3;

/** What the node calls read from the time-series store. */
export interface NodeHistory {
  seriesId(cellId: string, feeder: number, phase: number): number | undefined;
  latest: { ts(id: number): number; i(id: number): number };
  readRaw(ids: readonly number[], from: number, to: number): Promise<Map<number, RawSeries>>;
  readGrid(ids: readonly number[], from: number, to: number): Promise<NodeValues>;
}

/** How far back a warning's start is looked for: first this, then the whole history searched. */
const RECENT_MS = 6 * 3_600_000;
const HISTORY_MS = NODE_PERIOD_MAX_DAYS * 86_400_000;
const iso = (ms: number | null) =>
  ms === null || !Number.isFinite(ms) ? null : new Date(ms).toISOString();
const round2 = (v: number) => Math.round(v * 100) / 100;

/** The detail of one evaluated node; `cellId` is the node's cell (for the neutral's current). */
export async function nodeDetail(
  e: NodeEvaluation,
  level: Level,
  cellId: string | null,
  history: NodeHistory,
  now: number,
): Promise<NodeDetailDto> {
  const { status, topology, path, thresholds: t, nominalVoltage: un } = e;
  const structureFeeders = new Map(path.node.feeders.map((f) => [f.id, f]));
  const feeders = status.feeders.map((fs, k) => {
    const top = topology.feeders[k]!;
    const f = structureFeeders.get(fs.id)!;
    const neutral = cellId === null ? undefined : history.seriesId(cellId, top.slot, NEUTRAL);
    const neutralI = neutral === undefined ? NaN : history.latest.i(neutral);
    const neutralTs = neutral === undefined ? -Infinity : history.latest.ts(neutral);
    const phases: NodeDetailDto["feeders"][number]["phases"] = fs.phases.map((p, n) => {
      const id = top.series[n];
      return {
        phase: PHASES[n]!,
        u: p.u === null ? null : round2(p.u),
        i: p.i === null ? null : round2(p.i),
        state: p.state,
        last_value_at: id === undefined ? null : iso(history.latest.ts(id)),
      };
    });
    if (neutral !== undefined) {
      const live = now - neutralTs <= 80_000 && !Number.isNaN(neutralI);
      phases.push({
        phase: "N",
        u: null,
        i: live ? round2(neutralI) : null,
        state: null,
        last_value_at: iso(neutralTs),
      });
    }
    return {
      id: f.id,
      slot: f.slot,
      name: f.name,
      type: f.type,
      nominal_current_a: f.nominal_current_a,
      overcurrent_a: round2(f.nominal_current_a * t.overcurrentPct / 100),
      state: fs.state,
      phases,
      top,
    };
  });

  // Warnings, with their start from the stored values.
  const pending: { warning: NodeWarningDto; id: number; inom: number }[] = [];
  const warnings: NodeWarningDto[] = [];
  for (const f of feeders) {
    f.phases.forEach((p, n) => {
      if (p.phase === "N" || p.state === null || p.state === "OK") return;
      const warning: NodeWarningDto = {
        feeder_id: f.id,
        feeder_name: f.name,
        phase: p.phase,
        state: p.state,
        since: p.state === "NO_DATA" ? p.last_value_at : null,
        since_earlier: false,
      };
      warnings.push(warning);
      const id = f.top.series[n];
      if (p.state !== "NO_DATA" && id !== undefined) {
        pending.push({ warning, id, inom: f.nominal_current_a });
      }
    });
  }
  const classify = (inom: number) => (u: number, i: number) => phaseState(u, i, un, inom, t);
  const resolve = async (items: typeof pending, from: number) => {
    const values = await history.readRaw(items.map((p) => p.id), from, now + 1);
    const earlier: typeof pending = [];
    for (const item of items) {
      const run = runStart(
        values.get(item.id) ?? { ts: [], u: [], i: [] },
        item.warning.state,
        classify(item.inom),
      );
      if (!run) continue;
      item.warning.since = iso(run.since);
      if (run.reachedStart && from > now - HISTORY_MS) earlier.push(item);
      else if (run.reachedStart) item.warning.since_earlier = true;
    }
    return earlier;
  };
  const earlier = pending.length ? await resolve(pending, now - RECENT_MS) : [];
  if (earlier.length) await resolve(earlier, now - HISTORY_MS);

  const un2 = round2(un);
  return {
    level,
    evaluated_at: new Date(e.evaluatedAt).toISOString(),
    id: path.node.id,
    name: path.node.name,
    latitude: path.node.latitude,
    longitude: path.node.longitude,
    upstream_node_id: path.node.upstream_node_id,
    electrical_work: { name: path.node.electrical_work.name, type: path.node.electrical_work.type },
    station_group: { id: path.stationGroup.id, name: path.stationGroup.name },
    mv_feeder_group: { id: path.mvFeederGroup.id, name: path.mvFeederGroup.name },
    lv_group: { id: path.lvGroup.id, name: path.lvGroup.name },
    state: status.state,
    suppressed_by: status.suppressedBy === null
      ? null
      : { id: status.suppressedBy, name: e.nameOf(status.suppressedBy) },
    last_value_at: iso(status.lastValueAt),
    limits: {
      nominal_voltage_v: un2,
      undervoltage_v: round2(un * (1 - t.undervoltagePct / 100)),
      overvoltage_v: round2(un * (1 + t.overvoltagePct / 100)),
      overcurrent_pct: t.overcurrentPct,
    },
    feeders: feeders.map(({ top: _, ...f }) => f),
    warnings,
  };
}

/**
 * The period of a values call: `to` defaults to now and `from` to a day before it. Refused with
 * 401 (unreadable, or from not before to), 403 (under 10 minutes) and
 * `monitoring.valuesPeriodTooLong` (over 7 days).
 */
export function valuesPeriod(
  fromText: string | undefined,
  toText: string | undefined,
  now: number,
): { from: number; to: number } {
  const to = toText === undefined ? now : Date.parse(toText);
  const from = fromText === undefined ? to - 86_400_000 : Date.parse(fromText);
  if (!Number.isFinite(from) || !Number.isFinite(to) || from >= to) throw new AppError(401);
  if (to - from > HISTORY_MS) {
    throw new AppError("monitoring.valuesPeriodTooLong", { days: NODE_PERIOD_MAX_DAYS });
  }
  if (to - from < NODE_PERIOD_MIN_MS) throw new AppError(403);
  return { from, to };
}

/** The values of a node's feeders (those of the level) over a period. */
export async function nodeValues(
  e: NodeEvaluation,
  level: Level,
  cellId: string | null,
  history: NodeHistory,
  period: { from: number; to: number },
): Promise<NodeValuesDto> {
  const structureFeeders = new Map(e.path.node.feeders.map((f) => [f.id, f]));
  const ids = e.topology.feeders.map((f) => [
    ...f.series,
    cellId === null ? undefined : history.seriesId(cellId, f.slot, NEUTRAL),
  ]);
  const grid = await history.readGrid(
    ids.flat().filter((id): id is number => id !== undefined),
    period.from,
    period.to,
  );
  const empty = grid.times.map(() => null);
  return {
    node_id: e.path.node.id,
    level,
    from: new Date(period.from).toISOString(),
    to: new Date(period.to).toISOString(),
    resolution: grid.resolution,
    step_s: grid.stepMs / 1000,
    times: grid.times,
    feeders: e.topology.feeders.map((f, k) => ({
      id: f.id,
      slot: f.slot,
      name: structureFeeders.get(f.id)?.name ?? "",
      phases: PHASES.flatMap((phase, n) => {
        const id = ids[k]![n];
        if (phase === "N" && id === undefined) return [];
        const s = id === undefined ? undefined : grid.series.get(id);
        return [{ phase, u: phase === "N" ? empty : s?.u ?? empty, i: s?.i ?? empty }];
      }),
    })),
  };
}
