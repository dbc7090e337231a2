import assert from "node:assert/strict";
import { row, T0 } from "./_store_fixtures.ts";
import { batchBytes } from "./store_group.ts";
import { PendingGroups, WaitingBatches } from "./store_queues.ts";

const rows = (count: number) => Array.from({ length: count }, (_, k) => row(T0 + k * 20_000, 230));
const noop = () => {};

Deno.test("WaitingBatches: bounded by estimated bytes, a lone batch always taken, a group frees its bytes", () => {
  const one = batchBytes({ measurements: rows(10) });
  assert.ok(one > 0);
  const queue = new WaitingBatches(one * 2);
  assert.ok(queue.admit("A", { measurements: rows(100) }, noop, noop), "alone: taken");
  assert.equal(queue.bytes, batchBytes({ measurements: rows(100) }));
  assert.equal(queue.admit("B", { measurements: rows(10) }, noop, noop), false, "over the bound");
  assert.equal(queue.length, 1);
  assert.deepEqual(queue.takeGroup().map((w) => w.cellId), ["A"]);
  assert.equal(queue.bytes, 0);
  assert.ok(queue.admit("B", { measurements: rows(10) }, noop, noop));
  assert.ok(queue.admit("B", { measurements: rows(10) }, noop, noop), "at the bound: taken");
  assert.equal(queue.admit("C", { measurements: rows(1) }, noop, noop), false);
  assert.equal(queue.takeGroup().length, 1, "a cell at most once per group");
  assert.equal(queue.bytes, one);
});

Deno.test("PendingGroups: full past its bytes, a taken group counts until written and goes back on failure", () => {
  const accepted = (count: number) => [{
    cellId: "A",
    ids: rows(count).map(() => 1),
    rows: rows(count),
    pq: { ids: [], rows: [] },
    events: [],
    io: [],
  }];
  const bytes = batchBytes({ measurements: rows(10) });
  const pending = new PendingGroups(bytes);
  pending.push(accepted(10), [], new Map(), null);
  assert.equal(pending.full, false, "at the bound");
  assert.equal(pending.firstSynced, false);
  assert.deepEqual(pending.take(), [], "nothing synced: nothing taken");
  const second = pending.push(accepted(5), [], new Map(), { segment: 0, offset: 9 });
  assert.equal(pending.full, true);
  assert.deepEqual(pending.backlog, { groups: 2, rows: 15, bytes: bytes * 1.5 });
  pending.clear();
  assert.deepEqual(pending.backlog, { groups: 0, rows: 0, bytes: 0 });
  pending.push(accepted(10), [], new Map(), { segment: 0, offset: 1 });
  assert.ok(second);
  const taken = pending.take();
  assert.equal(taken.length, 1);
  assert.equal(pending.backlog.rows, 10, "counts until written");
  pending.restore(taken);
  assert.equal(pending.firstSynced, true);
  pending.written(pending.take());
  assert.deepEqual(pending.backlog, { groups: 0, rows: 0, bytes: 0 });
  assert.equal(pending.full, false);
});
