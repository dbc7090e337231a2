import assert from "node:assert/strict";
import { LatestValues, type RawSeries } from "../../../core/mod.ts";
import { AppError, createLogger, EventBus, openMigratedDatabase } from "../../../kernel/mod.ts";
import type { Caller } from "./access.ts";
import type { MonitoredNode, NodeLookup } from "./nodes.ts";
import { RequestService } from "./requests.ts";
import { TriggerService } from "./triggers.ts";
import { TriggerWatcher } from "./watcher.ts";
import type { CustomTriggerFired } from "../events.ts";

const T0 = Date.parse("2026-11-30T23:50:00Z");
const CUSTOMER = "cust-1";
const ADMIN: Caller = { userId: "u1", customerKey: CUSTOMER, superRole: false, admin: true };

const node = (id: string, cellId: string | null = `cell-${id}`): MonitoredNode => ({
  id,
  name: `Node ${id}`,
  electricalWorkName: `EW ${id}`,
  customerKey: CUSTOMER,
  cellId,
  feeders: [
    { id: `${id}-lv`, slot: 1, name: "LV line", level: "LV" },
    { id: `${id}-mv`, slot: 2, name: "MV line", level: "MV" },
  ],
});

const NODES = [node("a"), node("b"), node("c"), node("nocell", null)];
const lookup: NodeLookup = {
  nodesOf: (key) => Promise.resolve(key === CUSTOMER ? NODES : []),
  find: (id, keys) =>
    Promise.resolve(keys.includes(CUSTOMER) ? NODES.find((n) => n.id === id) ?? null : null),
};

async function withServices(
  fn: (s: {
    requests: RequestService;
    triggers: TriggerService;
    clock: { now: number };
  }) => Promise<void>,
  limits = { maxRunning: 5, maxMonthlyPerCell: 3 },
) {
  const { database } = await openMigratedDatabase({ dataDir: ":memory:" });
  try {
    const clock = { now: T0 };
    const now = () => clock.now;
    const requests = new RequestService({
      db: database.db,
      nodes: lookup,
      allCustomerKeys: () => Promise.resolve([CUSTOMER]),
      limits,
      now,
    });
    await fn({ requests, triggers: new TriggerService(database.db, requests, now), clock });
  } finally {
    await database.close();
  }
}

async function code(promise: Promise<unknown>): Promise<number | string | undefined> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof AppError, String(error));
    return error.entry.code ?? error.entry.key;
  }
  assert.fail("Expected an AppError");
}

const manual = (nodeId: string, durationMin: number | null = 5) => ({
  nodeId,
  feederId: null,
  durationMin,
});

Deno.test("RequestService.start() ends a request by itself after its duration and frees the node", async () => {
  await withServices(async ({ requests, clock }) => {
    const started = await requests.start(ADMIN, manual("a", 5));
    assert.equal(started.status, "RUNNING");
    clock.now += 5 * 60_000 - 1;
    assert.equal(await code(requests.start(ADMIN, manual("a"))), 331);
    clock.now += 1;
    assert.equal((await requests.get(ADMIN, started.id)).status, "FINISHED");
    assert.equal((await requests.start(ADMIN, manual("a"))).status, "RUNNING");
    const finished = await requests.list(ADMIN, { nodeId: "a", status: "FINISHED" });
    assert.deepEqual(finished.map((r) => r.id), [started.id]);
  });
});

Deno.test("RequestService.start() raises 323 at the cell's monthly limit, counted per UTC month", async () => {
  await withServices(async ({ requests, clock }) => {
    for (let k = 0; k < 3; k++) {
      const r = await requests.start(ADMIN, manual("a", 1));
      await requests.stop(ADMIN, r.id);
    }
    assert.equal(await code(requests.start(ADMIN, manual("a", 1))), 323);
    assert.equal((await requests.start(ADMIN, manual("b", 1))).status, "RUNNING", "per cell");
    clock.now = Date.parse("2026-12-01T00:00:00Z");
    assert.equal((await requests.start(ADMIN, manual("a", 1))).status, "RUNNING");
  });
});

Deno.test("RequestService.start() refuses an unknown feeder, a node without cell and a foreign node", async () => {
  await withServices(async ({ requests }) => {
    assert.equal(
      await code(requests.start(ADMIN, { nodeId: "a", feederId: "b-lv", durationMin: 5 })),
      "grid.elementNotFound",
    );
    assert.equal(await code(requests.start(ADMIN, manual("nocell"))), 410);
    const stranger: Caller = { ...ADMIN, customerKey: "cust-2" };
    assert.equal(await code(requests.start(stranger, manual("a"))), "grid.elementNotFound");
    const operator: Caller = { ...ADMIN, admin: false };
    assert.equal(await code(requests.start(operator, manual("a", null))), "common.forbidden");
    assert.deepEqual(await requests.list(ADMIN, {}), []);
  });
});

Deno.test("RequestService.fire() starts the trigger's request, then ignores its own and fails on another", async () => {
  await withServices(async ({ requests, triggers, clock }) => {
    const settings = { deltaLvA: 10, deltaMvA: 5, durationMin: 2, enabled: true };
    const wide = await triggers.create(ADMIN, null, settings);
    const row = (await triggers.enabledTriggers()).find((t) => t.id === wide.id)!;
    const started = await requests.fire(row, node("a"), T0 - 20_000);
    assert.equal(started.status, "STARTED");
    assert.equal(started.request!.started_at, new Date(T0 - 20_000).toISOString());
    assert.equal(started.request!.ends_at, new Date(T0 + 100_000).toISOString());
    assert.equal((await requests.fire(row, node("a"), T0)).status, "IGNORED");
    await requests.start(ADMIN, manual("b"));
    assert.deepEqual(await requests.fire(row, node("b"), T0), {
      status: "FAILURE",
      code: 331,
      request: null,
    });
    const fired = await triggers.get(ADMIN, wide.id);
    assert.deepEqual([fired.last_fire?.status, fired.last_fire?.code], ["FAILURE", 331]);
    await triggers.disable(ADMIN, wide.id);
    clock.now += 60_000;
    assert.equal((await requests.fire(row, node("c"), clock.now)).status, "IGNORED");
  });
});

Deno.test("RequestService.fireAll() answers what fire() one after the other answers", async () => {
  const outcomes = async (batch: boolean) => {
    let out: unknown[] = [];
    await withServices(async ({ requests, triggers, clock }) => {
      const settings = { deltaLvA: 10, deltaMvA: 5, durationMin: 1, enabled: true };
      const wide = await triggers.create(ADMIN, null, settings);
      const row = (await triggers.enabledTriggers()).find((t) => t.id === wide.id)!;
      const fires = [
        // Started two minutes ago for one minute: over at once, so it does not count as running.
        { trigger: row, node: node("c"), startedAt: clock.now - 120_000 },
        { trigger: row, node: node("a"), startedAt: clock.now - 20_000 },
        { trigger: row, node: node("a"), startedAt: clock.now },
        { trigger: row, node: node("nocell", null), startedAt: clock.now },
        { trigger: row, node: node("b"), startedAt: clock.now - 20_000 },
        { trigger: row, node: node("c"), startedAt: clock.now - 20_000 },
      ];
      const results = batch ? await requests.fireAll(fires) : await fires.reduce(
        async (acc, f) => [...await acc, await requests.fire(f.trigger, f.node, f.startedAt)],
        Promise.resolve([] as Awaited<ReturnType<typeof requests.fire>>[]),
      );
      out = results.map((r) => [r.status, r.code, r.request?.node_id, r.request?.started_at]);
    }, { maxRunning: 2, maxMonthlyPerCell: 3 });
    return out;
  };
  const expected = await outcomes(false);
  assert.deepEqual(expected.map((r) => (r as unknown[]).slice(0, 2)), [
    ["STARTED", null],
    ["STARTED", null],
    ["IGNORED", null],
    ["IGNORED", null],
    ["STARTED", null],
    ["FAILURE", 322],
  ]);
  assert.deepEqual(await outcomes(true), expected);
});

Deno.test("TriggerService.create() allows one enabled trigger per node and one customer-wide (330)", async () => {
  await withServices(async ({ triggers }) => {
    const s = { deltaLvA: 10, deltaMvA: 5, durationMin: 5, enabled: true };
    await triggers.create(ADMIN, null, s);
    assert.equal(await code(triggers.create(ADMIN, null, s)), 330);
    const onA = await triggers.create(ADMIN, "a", s);
    assert.equal(await code(triggers.create(ADMIN, "a", s)), 330);
    const spare = await triggers.create(ADMIN, "a", { ...s, enabled: false });
    assert.equal(await code(triggers.update(ADMIN, spare.id, s)), 330);
    await triggers.disable(ADMIN, onA.id);
    assert.equal((await triggers.update(ADMIN, spare.id, s)).enabled, true);
    assert.equal(
      await code(triggers.create(ADMIN, "a", { ...s, durationMin: 120 })),
      "common.validation",
    );
  });
});

/** A store fake: series ids per (cell, slot, phase) and rows kept in memory. */
function fakeStore() {
  const latest = new LatestValues();
  const ids = new Map<string, number>();
  const rows = new Map<number, { ts: number; i: number }[]>();
  let listener = () => {};
  const idOf = (cell: string, slot: number, phase: number) => {
    const key = `${cell}|${slot}|${phase}`;
    if (!ids.has(key)) ids.set(key, ids.size + 1);
    return ids.get(key)!;
  };
  return {
    latest,
    seriesId: (cell: string, slot: number, phase: number) => ids.get(`${cell}|${slot}|${phase}`),
    onSlotsTouched: (l: () => void) => (listener = l),
    /** Stores one value per phase of a feeder and calls back like the store after a commit. */
    append(cell: string, slot: number, ts: number, i: readonly number[]) {
      i.forEach((value, phase) => {
        const id = idOf(cell, slot, phase);
        rows.set(id, [...(rows.get(id) ?? []), { ts, i: value }]);
        latest.update(id, ts, 230, value);
      });
      listener();
    },
    read(seriesIds: readonly number[], from: number, to: number) {
      const out = new Map<number, RawSeries>();
      for (const id of seriesIds) {
        const points = (rows.get(id) ?? []).filter((r) => r.ts >= from && r.ts < to);
        out.set(id, {
          ts: points.map((p) => p.ts),
          u: points.map(() => 230),
          i: points.map((p) => p.i),
        });
      }
      return Promise.resolve(out);
    },
  };
}

Deno.test("TriggerWatcher uses the MV delta on MV feeders, fires once per node and skips old history", async () => {
  await withServices(async ({ requests, triggers, clock }) => {
    const store = fakeStore();
    const bus = new EventBus(createLogger("error"));
    const fired: CustomTriggerFired[] = [];
    bus.subscribe("monitoring.customTriggerFired", (e) => void fired.push(e));
    const watcher = new TriggerWatcher({
      requests,
      triggers,
      nodes: lookup,
      store,
      read: (ids, from, to) => store.read(ids, from, to),
      bus,
      logger: createLogger("error"),
      now: () => clock.now,
    });
    await watcher.start();
    await triggers.create(ADMIN, null, {
      deltaLvA: 50,
      deltaMvA: 5,
      durationMin: 1,
      enabled: true,
    });
    // History an hour old: a big step, but not live.
    store.append("cell-a", 1, T0 - 3_600_000, [10, 10, 10]);
    store.append("cell-a", 1, T0 - 3_580_000, [500, 10, 10]);
    // Live: the LV line changes by 40 A (below 50), the MV line by 6 A (above 5) on two phases.
    store.append("cell-a", 1, T0 - 40_000, [10, 10, 10]);
    store.append("cell-a", 2, T0 - 40_000, [20, 20, 20]);
    store.append("cell-a", 1, T0 - 20_000, [50, 10, 10]);
    store.append("cell-a", 2, T0 - 20_000, [20, 26, 26]);
    await watcher.idle();
    assert.equal(fired.length, 1);
    assert.equal(fired[0]!.level, "MV");
    assert.equal(fired[0]!.phase, "L2");
    assert.equal(fired[0]!.status, "STARTED");
    assert.equal(fired[0]!.changeA, 6);
    const running = await requests.list(ADMIN, { nodeId: "a", status: "RUNNING" });
    assert.equal(running[0]!.started_at, new Date(T0 - 40_000).toISOString());
    await watcher.close();
  });
});
