/**
 * The incremental trigger evaluation fires exactly what reading every changed series' window
 * fires (the evaluation before it compared values in memory), on random value streams: live
 * ticks, gaps, batches of several windows, late and duplicate values, missing currents, history
 * older than FRESH_MS and evaluations at random moments.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  currentSteps,
  LatestValues,
  type RawSeries,
  VALUE_INTERVAL_MS,
} from "../../../core/mod.ts";
import { createLogger, EventBus } from "../../../kernel/mod.ts";
import type { MonitoredNode } from "./nodes.ts";
import type { RequestService } from "./requests.ts";
import type { TriggerRow } from "./schema.ts";
import type { TriggerService } from "./triggers.ts";
import { FRESH_MS, TriggerWatcher, type WatcherDeps } from "./watcher.ts";
import type { CustomTriggerFired } from "../events.ts";

const T0 = Date.parse("2026-11-22T10:00:00Z");
const NODES: MonitoredNode[] = [0, 1, 2].map((k) => ({
  id: `n${k}`,
  name: `Node ${k}`,
  electricalWorkName: `EW ${k}`,
  customerKey: "c",
  cellId: `cell${k}`,
  feeders: [
    { id: `n${k}-lv`, slot: 1, name: "LV", level: "LV" as const },
    { id: `n${k}-mv`, slot: 2, name: "MV", level: "MV" as const },
  ],
}));
const trigger = (id: string, nodeId: string | null, deltaLvA: number, deltaMvA: number) =>
  ({
    id,
    customerKey: "c",
    nodeId,
    deltaLvA,
    deltaMvA,
    durationMin: 5,
    enabled: true,
  }) as TriggerRow;
const TRIGGERS = [trigger("wide", null, 10, 5), trigger("own", "n1", 30, 2)];

/** The measurement store as the watcher sees it, rows kept in memory (duplicates ignored). */
function memoryStore() {
  const latest = new LatestValues();
  const ids = new Map<string, number>();
  const rows = new Map<number, Map<number, number>>();
  return {
    latest,
    seriesId: (cell: string, slot: number, phase: number) => ids.get(`${cell}|${slot}|${phase}`),
    onSlotsTouched: () => {},
    append(cell: string, slot: number, phase: number, ts: number, i: number) {
      const key = `${cell}|${slot}|${phase}`;
      if (!ids.has(key)) ids.set(key, ids.size + 1);
      const id = ids.get(key)!;
      const series = rows.get(id) ?? new Map<number, number>();
      rows.set(id, series);
      if (series.has(ts)) return;
      series.set(ts, i);
      latest.update(id, ts, 230, i);
    },
    read(seriesIds: readonly number[], from: number, to: number) {
      const out = new Map<number, RawSeries>();
      for (const id of seriesIds) {
        const points = [...(rows.get(id) ?? new Map<number, number>())]
          .filter(([ts]) => ts >= from && ts < to).sort((a, b) => a[0] - b[0]);
        out.set(id, {
          ts: points.map((p) => p[0]),
          u: points.map(() => 230),
          i: points.map((p) => (Number.isNaN(p[1]) ? null : p[1])),
        });
      }
      return Promise.resolve(out);
    },
  };
}
type Store = ReturnType<typeof memoryStore>;

/** The evaluation before the incremental one: every changed series' window read back. */
function referenceWatcher(store: Store) {
  const seen = new Map<number, number>();
  const watched = () =>
    NODES.flatMap((node) => {
      const t = TRIGGERS.find((r) => r.nodeId === node.id) ?? TRIGGERS[0]!;
      return node.feeders.flatMap((feeder) =>
        [0, 1, 2].flatMap((phase) => {
          const seriesId = store.seriesId(node.cellId!, feeder.slot, phase);
          return seriesId === undefined ? [] : [{ seriesId, t, node, feeder, phase }];
        })
      );
    });
  return {
    async evaluate(now: number) {
      const changed = watched().flatMap((w) => {
        const newest = store.latest.ts(w.seriesId);
        const s = Math.max(seen.get(w.seriesId) ?? -Infinity, now - FRESH_MS);
        return newest > s ? [{ w, newest, seen: s }] : [];
      });
      if (!changed.length) return [];
      const from = Math.min(...changed.map((c) => c.seen)) - VALUE_INTERVAL_MS;
      const to = Math.max(...changed.map((c) => c.newest)) + 1;
      const values = await store.read([...new Set(changed.map((c) => c.w.seriesId))], from, to);
      const first = new Map<
        string,
        { w: (typeof changed)[0]["w"]; step: ReturnType<typeof currentSteps>[0] }
      >();
      for (const { w, newest, seen: s } of changed) {
        seen.set(w.seriesId, newest);
        const series = values.get(w.seriesId)!;
        const points = series.ts.flatMap((ts, k) =>
          ts <= newest ? [{ ts, i: series.i[k] ?? NaN }] : []
        );
        const delta = w.feeder.level === "MV" ? w.t.deltaMvA : w.t.deltaLvA;
        const step = currentSteps(points, delta, s)[0];
        const held = first.get(w.node.id);
        if (step && (!held || step.before.ts < held.step.before.ts)) {
          first.set(w.node.id, { w, step });
        }
      }
      return [...first.values()].map((
        { w, step },
      ) => [w.node.id, w.feeder.id, w.phase, Math.round(step.changeA * 100) / 100, step.after.ts]);
    },
  };
}

type Op =
  | { kind: "values"; node: number; slot: number; back: number; windows: number; i: number[] }
  | { kind: "tick"; i: number[] }
  | { kind: "evaluate"; advance: number };

const current = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0, max: 60 }) },
  { weight: 1, arbitrary: fc.constant(NaN) },
);
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("values" as const),
      node: fc.integer({ min: 0, max: 2 }),
      slot: fc.integer({ min: 1, max: 2 }),
      // Up to 40 windows back: some history is older than FRESH_MS (30 windows).
      back: fc.integer({ min: 0, max: 40 }),
      windows: fc.integer({ min: 1, max: 4 }),
      i: fc.array(current, { minLength: 12, maxLength: 12 }),
    }),
  },
  {
    // A live tick: every series of every node gets the next 20-s value, then an evaluation.
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("tick" as const),
      i: fc.array(current, { minLength: 18, maxLength: 18 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("evaluate" as const),
      advance: fc.oneof(fc.constant(1), fc.integer({ min: 0, max: 40 })),
    }),
  },
);

/** A started watcher on `store` whose every fire starts a request; `fired`: its events. */
async function startWatcher(store: Store, read: WatcherDeps["read"], now: () => number) {
  const bus = new EventBus(createLogger("error"));
  const fired: CustomTriggerFired[] = [];
  bus.subscribe("monitoring.customTriggerFired", (e) => void fired.push(e));
  const watcher = new TriggerWatcher({
    requests: {
      fireAll: (fires: unknown[]) =>
        Promise.resolve(fires.map(() => ({ status: "STARTED", code: null, request: null }))),
    } as unknown as RequestService,
    triggers: {
      enabledTriggers: () => Promise.resolve(TRIGGERS),
      onChanged: () => {},
    } as unknown as TriggerService,
    nodes: {
      nodesOf: () => Promise.resolve(NODES),
      find: (id) => Promise.resolve(NODES.find((n) => n.id === id) ?? null),
    },
    store,
    read,
    bus,
    logger: createLogger("error"),
    now,
  });
  await watcher.start();
  return { watcher, fired };
}

Deno.test("TriggerWatcher fires exactly the steps the window-reading evaluation fires", async () => {
  let steps = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 60 }), async (ops) => {
      const store = memoryStore();
      const clock = { now: T0 };
      const { watcher, fired } = await startWatcher(store, store.read, () => clock.now);
      const reference = referenceWatcher(store);
      for (const o of ops) {
        if (o.kind === "values") {
          const tick = clock.now - (clock.now % VALUE_INTERVAL_MS) - o.back * VALUE_INTERVAL_MS;
          for (let w = 0; w < o.windows; w++) {
            for (let phase = 0; phase < 3; phase++) {
              const ts = tick + w * VALUE_INTERVAL_MS;
              store.append(`cell${o.node}`, o.slot, phase, ts, o.i[w * 3 + phase]!);
            }
          }
          continue;
        }
        if (o.kind === "tick") {
          const ts = clock.now - (clock.now % VALUE_INTERVAL_MS);
          NODES.forEach((_, k) =>
            [1, 2].forEach((slot) =>
              [0, 1, 2].forEach((phase) =>
                store.append(`cell${k}`, slot, phase, ts, o.i[k * 6 + (slot - 1) * 3 + phase]!)
              )
            )
          );
        }
        clock.now += o.kind === "tick" ? VALUE_INTERVAL_MS : o.advance * VALUE_INTERVAL_MS;
        const expected = await reference.evaluate(clock.now);
        fired.length = 0;
        watcher.poke();
        await watcher.idle();
        const actual = fired.map((e) => [
          e.nodeId,
          e.feederId,
          ["L1", "L2", "L3"].indexOf(e.phase),
          e.changeA,
          Date.parse(e.at),
        ]);
        assert.deepEqual(actual, expected);
        steps += actual.length;
      }
      await watcher.close();
    }),
    { numRuns: 300 },
  );
  assert.ok(steps > 1_000, `the streams fire often enough to compare (${steps})`);
});

Deno.test("TriggerWatcher compares a live tick in memory and reads only after a gap", async () => {
  const store = memoryStore();
  const reads: number[] = [];
  const clock = { now: T0 };
  const { watcher, fired } = await startWatcher(store, (ids, from, to) => {
    reads.push(ids.length);
    return store.read(ids, from, to);
  }, () => clock.now);
  const tick = (i: (k: number) => number) => {
    NODES.forEach((_, k) =>
      [1, 2].forEach((slot) =>
        [0, 1, 2].forEach((phase) => store.append(`cell${k}`, slot, phase, clock.now, i(k)))
      )
    );
    clock.now += VALUE_INTERVAL_MS;
    watcher.poke();
    return watcher.idle();
  };
  await tick(() => 20); // first contact: read back
  assert.deepEqual(reads, [18]);
  await tick((k) => (k === 2 ? 45 : 20));
  await tick(() => 20);
  assert.deepEqual(reads, [18], "live ticks read nothing");
  assert.deepEqual(fired.map((e) => [e.nodeId, e.changeA]), [["n2", 25], ["n2", 25]]);
  clock.now += VALUE_INTERVAL_MS; // a missed window
  await tick(() => 80);
  assert.deepEqual(reads, [18, 18]);
  assert.equal(fired.length, 2, "no step across the gap");
  await watcher.close();
});

Deno.test("TriggerWatcher evaluates again the values its read did not find in the file yet", async () => {
  // The store's latest values move when a group is journaled; its DuckDB write comes later.
  const store = memoryStore();
  let written = -Infinity;
  const { watcher, fired } = await startWatcher(
    store,
    (ids, from, to) => store.read(ids, from, Math.min(to, written + 1)),
    () => T0 + 60_000,
  );
  // 40 A, 50 A (exactly the delta), 61 A on one phase of node 0, all three journaled...
  [40, 50, 61].forEach((i, k) => store.append("cell0", 1, 0, T0 + k * VALUE_INTERVAL_MS, i));
  // ...and only the first written when the watcher is told of that write.
  written = T0;
  watcher.poke();
  await watcher.idle();
  assert.equal(fired.length, 0);
  written = T0 + 2 * VALUE_INTERVAL_MS;
  watcher.poke();
  await watcher.idle();
  assert.deepEqual(fired.map((e) => [e.nodeId, e.changeA, e.at]), [
    ["n0", 11, new Date(T0 + 2 * VALUE_INTERVAL_MS).toISOString()],
  ]);
  await watcher.close();
});
