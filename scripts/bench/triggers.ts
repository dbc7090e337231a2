/**
 * Fast current-change triggers (custom monitoring, spec 1/4/9): the watcher's evaluation of one
 * 20-s tick of N cells x 6 feeders x L1..L3 with automatic triggers enabled for every node (one
 * customer-wide trigger and one of its own on every tenth node; feeder 1 of every station is MV).
 *
 * Each tick's values come from the simulator (fixed seed) plus a current step of 150 A on three
 * nodes; they are written to `raw_measurements` of a file-backed DuckDB and to the store's
 * latest values (untimed), then `TriggerWatcher.poke()` and `idle()` are timed: everything the
 * watcher does for that tick, including reading what it needs and firing (request rows and
 * events in PGlite).
 */
import { DuckDBTimestampValue } from "@duckdb/node-api";
import { LatestValues, readRawValues } from "../../core/mod.ts";
import { allocateColumns, generateColumns, WINDOW_MS } from "../../core/simulator/mod.ts";
import { createLogger, EventBus, openMigratedDatabase } from "../../kernel/mod.ts";
import type { MonitoredNode, NodeLookup } from "../../modules/monitoring/custom/nodes.ts";
import { RequestService } from "../../modules/monitoring/custom/requests.ts";
import { TriggerService } from "../../modules/monitoring/custom/triggers.ts";
import { TriggerWatcher } from "../../modules/monitoring/custom/watcher.ts";
import { openDuckFile, platformMemoryLimit, rawTableDdl } from "./lib/duck.ts";
import type { Sizes } from "./lib/options.ts";
import { atMost, type Result } from "./lib/report.ts";
import { summarize } from "./lib/stats.ts";
import { collect, timeOnce } from "./lib/timing.ts";
import { lvgridCell, SEED } from "./lib/workload.ts";

const CUSTOMER = "bench-customer";
const CALLER = { userId: "bench", customerKey: CUSTOMER, superRole: false, admin: true };
/** Nodes that get a 150 A step on L1 of feeder 2 in each tick. */
const STEPS_PER_TICK = 3;
const STEP_A = 150;

/** Series id of cell `k`, feeder slot 1..6, phase 0..2 (dense, as the store assigns them). */
const seriesOf = (k: number, slot: number, phase: number) => k * 18 + (slot - 1) * 3 + phase + 1;

function monitoredNodes(cells: number): MonitoredNode[] {
  return Array.from({ length: cells }, (_, k) => ({
    id: `node-${k}`,
    name: `Node ${k}`,
    electricalWorkName: `EW ${k}`,
    customerKey: CUSTOMER,
    cellId: `cell-${k}`,
    feeders: [1, 2, 3, 4, 5, 6].map((slot) => ({
      id: `node-${k}-f${slot}`,
      slot,
      name: `Feeder ${slot}`,
      level: slot === 1 && k % 10 === 0 ? "MV" as const : "LV" as const,
    })),
  }));
}

/** Times the evaluation of `sizes.triggerTicks` ticks of `sizes.triggerCells` cells. */
export async function benchTriggers(dir: string, sizes: Sizes): Promise<Result[]> {
  const cellCount = sizes.triggerCells;
  const duck = await openDuckFile(dir, "triggers", platformMemoryLimit());
  const { database } = await openMigratedDatabase({ dataDir: ":memory:" });
  try {
    const c = duck.connection;
    await c.run(rawTableDdl());
    await c.run("CREATE TABLE tick (series_id INTEGER, ts TIMESTAMP, u FLOAT, i FLOAT)");

    const nodes = monitoredNodes(cellCount);
    const byId = new Map(nodes.map((n) => [n.id, n]));
    const lookup: NodeLookup = {
      nodesOf: (key) => Promise.resolve(key === CUSTOMER ? nodes : []),
      find: (id, keys) => Promise.resolve(keys.includes(CUSTOMER) ? byId.get(id) ?? null : null),
    };
    // The clock stands a few seconds after the tick's window, as when its batches arrive.
    const clock = { now: Date.now() };
    const now = () => clock.now;
    const requests = new RequestService({
      db: database.db,
      nodes: lookup,
      allCustomerKeys: () => Promise.resolve([CUSTOMER]),
      now,
    });
    // Firing (a request row in PGlite per fire) is timed apart as well.
    let firing = 0;
    const fireAll = requests.fireAll.bind(requests);
    requests.fireAll = async (...args) => {
      const start = performance.now();
      try {
        return await fireAll(...args);
      } finally {
        firing += performance.now() - start;
      }
    };
    const triggers = new TriggerService(database.db, requests, now);
    const latest = new LatestValues();
    const bus = new EventBus(createLogger("error"));
    let fired = 0;
    bus.subscribe("monitoring.customTriggerFired", () => void fired++);
    const watcher = new TriggerWatcher({
      requests,
      triggers,
      nodes: lookup,
      store: {
        latest,
        seriesId: (cell, slot, phase) =>
          phase < 3 ? seriesOf(Number(cell.slice(5)), slot, phase) : undefined,
        onSlotsTouched: () => {},
      },
      read: (ids, from, to) => readRawValues(c, ids, from, to),
      bus,
      logger: createLogger("error"),
      now,
    });
    const settings = { deltaLvA: 60, deltaMvA: 30, durationMin: 5, enabled: true };
    await triggers.create(CALLER, null, settings);
    for (let k = 5; k < cellCount; k += 10) {
      await triggers.create(CALLER, nodes[k]!.id, { ...settings, deltaLvA: 80 });
    }
    await watcher.start();

    const cells = Array.from({ length: cellCount }, (_, k) => lvgridCell(k));
    const cols = allocateColumns(cellCount * 24);
    const first = clock.now - (clock.now % WINDOW_MS) - 40 * WINDOW_MS;
    let steps = 0;
    /** Stores tick `t` (window `first + t x 20 s`) in DuckDB and in the latest values. */
    const store = async (t: number) => {
      const window = first + t * WINDOW_MS;
      const count = generateColumns(cells, window, SEED, cols);
      const stepped = new Set(
        Array.from({ length: STEPS_PER_TICK }, (_, s) => (t * 7919 + s * 1543) % cellCount),
      );
      steps += stepped.size;
      const appender = await c.createAppender("tick");
      const ts = new DuckDBTimestampValue(BigInt(window) * 1000n);
      for (let r = 0; r < count; r++) {
        const phase = cols.phase[r]!;
        if (phase === 3) continue;
        const k = cols.cell[r]!;
        const slot = cols.feeder[r]!;
        const i = cols.i[r]! + (slot === 2 && phase === 0 && stepped.has(k) ? STEP_A : 0);
        const id = seriesOf(k, slot, phase);
        appender.appendInteger(id);
        appender.appendTimestamp(ts);
        appender.appendFloat(cols.u[r]!);
        appender.appendFloat(i);
        appender.endRow();
        latest.update(id, window, Math.fround(cols.u[r]!), Math.fround(i));
      }
      appender.flushSync();
      appender.closeSync();
      await c.run("INSERT INTO raw_measurements BY NAME SELECT * FROM tick");
      await c.run("DELETE FROM tick");
      clock.now = window + WINDOW_MS + 5_000;
    };
    let tick = 0;
    const comparing: number[] = [];
    const samples = await collect(async () => {
      await store(tick++);
      firing = 0;
      const ms = await timeOnce(async () => {
        watcher.poke();
        await watcher.idle();
      });
      comparing.push(ms - firing);
      return ms;
    }, { warmup: 2, repeats: sizes.triggerTicks });
    await watcher.close();
    const s = summarize(samples);
    const bare = summarize(comparing.slice(2));
    const watched = cellCount * 18;
    console.log(
      `  trigger evaluation: ${cellCount} cells, ${watched} series, ${tick} ticks, ` +
        `${steps} injected steps, ${fired} fired; p50 ${s.p50.toFixed(1)} ms, ` +
        `p99 ${s.p99.toFixed(1)} ms, max ${s.max.toFixed(1)} ms; without the time spent firing: ` +
        `p50 ${bare.p50.toFixed(1)} ms, p99 ${bare.p99.toFixed(1)} ms`,
    );
    return [
      {
        name: `Trigger evaluation, one tick of ${cellCount} cells (${watched} series), p50`,
        value: s.p50,
        unit: "ms",
      },
      {
        name: `Trigger evaluation, one tick of ${cellCount} cells (${watched} series), p99`,
        value: s.p99,
        unit: "ms",
        target: atMost(100, "<= 100 ms per tick"),
        scaled: cellCount < 5_000,
      },
      {
        name: `Trigger evaluation without firing (requests in PGlite), p99`,
        value: bare.p99,
        unit: "ms",
      },
    ];
  } finally {
    await database.close();
    duck.close();
  }
}
