/**
 * The demo utility comes alive: its cells get fresh credentials, 14 days of history are filled
 * in through the ingestion core (the simulator's column fast path into the measurement store,
 * every cell's 10 minutes committed together, aggregated every 6 hours of history), then the
 * cells send live over HTTP like real ones.
 */
import {
  type Aggregator,
  type LoadProfile,
  type MeasurementStore,
  runLive,
  runRecordingCells,
  type SimCell,
  storeSimulatedRange,
} from "../../core/mod.ts";
import type { CustomersService } from "../customers/mod.ts";
import { type CellOnboardingService, type CellsService, readStructure } from "../grid/mod.ts";
import type { Db, Logger } from "../../kernel/mod.ts";
import { DEMO_CUSTOMER } from "./mod.ts";
import { DEMO_PROFILES } from "./grid.ts";

/** Where the cells' phases are wired wrong (mapping validation must find it). */
const SWAPPED_MAPPING = "CAB Mühlebach";
/** A cell that went silent two hours ago (a dead modem in the field). */
const OFFLINE_NOW = "CAB Waldrand";
/** A cell that was offline for six hours yesterday. */
const OFFLINE_YESTERDAY = "CAB Gleisfeld";
/** Never answers a request for an event recording (the download fails with 518). */
const RECORDING_TIMEOUT = "CAB Seeblick 4";
/** Uploads event recordings that fail their checksum (521). */
const RECORDING_CORRUPT = "CAB Rebberg";
/**
 * Fails EN 50160 on voltage: the far end of a long, thin cable, below -10 % at the evening peaks
 * in about 8 % of a week (weakSupplyDrop: 12 % more drop at full load).
 */
const WEAK_SUPPLY = "CAB Seeblick 3";
/** Fails EN 50160 on flicker: a sawmill next door, working weekdays 07:00-17:00. */
const DISTURBING_LOAD = "CAB Lagerhaus";
/** The demo cells poll their configuration (and recording commands) this often. */
const RECORDING_POLL_MS = 10_000;
const CHUNK_MS = 6 * 3_600_000;

export interface DemoSimulationDeps {
  db: Db;
  customers: CustomersService;
  cells: CellsService;
  /** Issues the simulated cells' credentials (the rotation behind POST /gsm/cells/{id}/credential). */
  onboarding: CellOnboardingService;
  store: MeasurementStore;
  aggregator: Aggregator;
  logger: Logger;
  /** Origin the live cells post to (this process). */
  baseUrl: string;
  backfillDays: number;
  rawLifetimeDays: number;
  seed?: number;
}

/**
 * Builds simulator cells from the demo grid and issues their credentials (a rotation, as an
 * administrator would do it). A cell whose credential an administrator revoked stays silent.
 */
export async function demoSimCells(deps: DemoSimulationDeps, now: number): Promise<SimCell[]> {
  const customer = await deps.customers.getByConnection(DEMO_CUSTOMER);
  if (!customer) return [];
  const installed = new Map(
    (await deps.cells.listFor(customer.key, "INSTALLED")).filter((c) => !c.revoked)
      .map((c) => [c.node_id, c.id]),
  );
  const un = Number.parseFloat((customer.default_lv_nominal_voltage ?? "230/400").split("/")[0]!);
  // The MV nominal as grid monitoring evaluates it: the line voltage over sqrt(3).
  const unMv = (customer.default_mv_nominal_voltage ?? 16_000) / Math.sqrt(3);
  const cells: SimCell[] = [];
  for (const group of await readStructure(deps.db, customer.key)) {
    for (const lv of group.mv_feeder_groups.flatMap((m) => m.lv_groups)) {
      const profile: LoadProfile = DEMO_PROFILES[lv.name] ?? "mixed";
      for (const node of lv.nodes) {
        const cellId = installed.get(node.id);
        if (!cellId || node.electrical_work.type === "MV_CABINET") continue;
        const offline = node.name === OFFLINE_NOW
          ? [{ from: now - 2 * 3_600_000, to: now + 365 * 86_400_000 }]
          : node.name === OFFLINE_YESTERDAY
          ? [{ from: now - 30 * 3_600_000, to: now - 24 * 3_600_000 }]
          : [];
        cells.push({
          cellId,
          credential: (await deps.onboarding.rotate(customer.key, cellId)).credential,
          nodeKind: node.electrical_work.type as SimCell["nodeKind"],
          nominalVoltage: un,
          mvNominalVoltage: unMv,
          frequency: customer.default_frequency === 60 ? 60 : 50,
          electricalDistance: node.electrical_distance,
          ...(node.name === WEAK_SUPPLY ? { weakSupplyDrop: 0.12 } : {}),
          ...(node.name === DISTURBING_LOAD ? { disturbingLoadPst: 1.1 } : {}),
          swappedMapping: node.name === SWAPPED_MAPPING,
          ...(node.name === RECORDING_TIMEOUT
            ? { recordingBehaviour: "TIMEOUT" as const }
            : node.name === RECORDING_CORRUPT
            ? { recordingBehaviour: "CORRUPT" as const }
            : {}),
          offline,
          feeders: node.feeders.map((f) => ({
            slot: f.slot,
            kind: f.type,
            nominalCurrentA: f.nominal_current_a,
            // An MV line feeds the stations further along the MV feeder: a mixed load.
            profile: f.type === "MV_LINE" ? "mixed" : profile,
            ...(profile === "residential" && f.type === "LV_LINE"
              ? { pvPeakA: 20, evPeakA: 32 }
              : {}),
            ...(f.parameters.mvVoltageEstimation === true ? { mvEstimation: true } : {}),
          })),
        });
      }
    }
  }
  return cells;
}

/** Fills `[from, to)` in 6-hour steps, newest first; returns the rows stored. */
export async function backfill(
  deps: DemoSimulationDeps,
  cells: readonly SimCell[],
  from: number,
  to: number,
  signal?: AbortSignal,
): Promise<number> {
  let stored = 0;
  const seed = deps.seed ?? 42;
  for (let end = to; end > from && !signal?.aborted; end -= CHUNK_MS) {
    const start = Math.max(from, end - CHUNK_MS);
    const now = Date.now();
    stored += await storeSimulatedRange(deps.store, cells, start, end, seed, {
      now,
      oldest: now - deps.rawLifetimeDays * 86_400_000,
    }, signal);
    await deps.aggregator.flush();
    const memory = Deno.memoryUsage();
    deps.logger.debug("Backfill chunk stored", {
      until: new Date(end).toISOString(),
      rows: stored,
      rssMb: Math.round(memory.rss / 1e6),
      heapMb: Math.round(memory.heapUsed / 1e6),
    });
  }
  return stored;
}

/**
 * Starts the demo: the last hour first, then live cells over HTTP while older history fills in
 * behind them (newest first, so recent screens fill quickly). Returns a stop function.
 */
export function startDemoSimulation(deps: DemoSimulationDeps): () => Promise<void> {
  const controller = new AbortController();
  const { signal } = controller;
  const run = (async () => {
    const now = Date.now();
    const to = now - (now % 20_000);
    const cells = await demoSimCells(deps, now);
    if (!cells.length) return;
    const newest = deps.store.newestTimestamp();
    const recentFrom = Math.max(to - 3_600_000, newest === null ? -Infinity : newest + 20_000);
    if (recentFrom < to) {
      await backfill(deps, cells, recentFrom - (recentFrom % 20_000), to, signal);
    }
    if (signal.aborted) return;
    deps.logger.info("Demo cells sending live", { cells: cells.length, baseUrl: deps.baseUrl });
    const live = runLive({
      baseUrl: deps.baseUrl,
      cells,
      seed: deps.seed ?? 42,
      signal,
      startMs: to,
      onError: (error) =>
        deps.logger.warn("Demo cell batch refused", { cellId: error.cellId, status: error.status }),
    });
    // The cells' side of event recordings: they poll their configuration for commands.
    const recordingCells = runRecordingCells({
      baseUrl: deps.baseUrl,
      cells,
      seed: deps.seed ?? 42,
      intervalMs: RECORDING_POLL_MS,
      signal,
      onError: (cellId, error) =>
        deps.logger.debug("Demo cell configuration poll failed", { cellId, error }),
    });
    const historyFrom = Math.max(
      now - deps.backfillDays * 86_400_000,
      newest === null ? -Infinity : newest + 20_000,
    );
    const historyTo = to - 3_600_000;
    if (historyFrom < historyTo) {
      const started = performance.now();
      const rows = await backfill(
        deps,
        cells,
        historyFrom - (historyFrom % 20_000),
        historyTo,
        signal,
      );
      const seconds = Math.round((performance.now() - started) / 100) / 10;
      deps.logger.info("Demo history filled", {
        rows,
        seconds,
        from: new Date(historyFrom).toISOString(),
      });
    }
    await live;
    await recordingCells;
  })().catch((error) => deps.logger.error("Demo simulation stopped", { error }));
  return async () => {
    controller.abort();
    await run;
  };
}
