import assert from "node:assert/strict";
import { QUALITY } from "./iec104_codec.ts";
import { PointTable, type SeriesSource, STALE_MS } from "./point_table.ts";
import type { StoredPoint } from "./points.ts";

const NOW = 10_000_000;
const points: StoredPoint[] = [
  { ioa: 1, node_id: "n1", feeder_id: "f1", quantity: "U", phase: 1, activated: true },
  { ioa: 2, node_id: "n1", feeder_id: "f1", quantity: "I", phase: 2, activated: true },
  { ioa: 3, node_id: "n1", feeder_id: null, quantity: "NODE_STATE", phase: null, activated: true },
  {
    ioa: 4,
    node_id: "n1",
    feeder_id: null,
    quantity: "CELL_CONNECTED",
    phase: null,
    activated: true,
  },
  { ioa: 5, node_id: "n2", feeder_id: "f2", quantity: "U", phase: 1, activated: false },
];
const grid = {
  cellOf: new Map([["n1", "cell-1"]]),
  slotOf: new Map([["f1", 1], ["f2", 1]]),
  lvSlotsOf: new Map([["n1", [1]]]),
};

function source() {
  const ts = new Map<number, number>();
  const u = new Map<number, number>();
  const i = new Map<number, number>();
  const ids = new Map<string, number>();
  const s: SeriesSource & { set(phase: number, at: number, uv: number, iv: number): void } = {
    latest: {
      ts: (id) => ts.get(id) ?? -Infinity,
      u: (id) => u.get(id) ?? NaN,
      i: (id) => i.get(id) ?? NaN,
    },
    seriesId: (cell, slot, phase) => ids.get(`${cell}|${slot}|${phase}`),
    set(phase, at, uv, iv) {
      const key = `cell-1|1|${phase}`;
      if (!ids.has(key)) ids.set(key, ids.size);
      const id = ids.get(key)!;
      ts.set(id, at);
      u.set(id, uv);
      i.set(id, iv);
    },
  };
  return s;
}

Deno.test("a silent cell: interrogation values carry IV and NT, then new values go spontaneous", () => {
  const src = source();
  const table = new PointTable(points, grid);
  assert.equal(table.size, 4);
  table.prime(src, NOW);
  const before = table.snapshot(src, NOW);
  assert.deepEqual(before.floats.map((v) => [v.ioa, v.quality]), [
    [1, QUALITY.IV | QUALITY.NT],
    [2, QUALITY.IV | QUALITY.NT],
  ]);
  assert.deepEqual(before.singles.map((v) => [v.ioa, v.value, v.quality]), [
    [3, 0, QUALITY.IV | QUALITY.NT],
    [4, 0, 0],
  ]);
  src.set(0, NOW - 1000, 231.5, 10);
  src.set(1, NOW - 1000, 229, 42.5);
  const spont = table.newValues(src, NOW);
  assert.deepEqual(spont.map((v) => [v.ioa, v.value, v.quality, v.at]), [
    [1, 231.5, 0, NOW - 1000],
    [2, 42.5, 0, NOW - 1000],
  ]);
  assert.deepEqual(table.newValues(src, NOW), []); // nothing newer
  assert.deepEqual(table.connectivityChanges(src, NOW).map((v) => [v.ioa, v.value]), [[4, 1]]);
  assert.deepEqual(table.connectivityChanges(src, NOW + STALE_MS).map((v) => [v.ioa, v.value]), [
    [4, 0],
  ]);
});

Deno.test("node state points change only when the alarm flag changes", () => {
  const table = new PointTable(points, grid);
  table.prime(source(), NOW, new Map([["n1", "OK"]]));
  assert.deepEqual(table.nodeStateValues("n1", "OK", NOW), []);
  assert.deepEqual(table.nodeStateValues("n1", "OVERVOLTAGE", NOW).map((v) => v.value), [1]);
  assert.deepEqual(table.nodeStateValues("n1", "INTERRUPTION", NOW), []);
  assert.deepEqual(table.nodeStateValues("n1", "OK", NOW).map((v) => v.value), [0]);
  assert.deepEqual(table.nodeStateValues("other", "OK", NOW), []);
});
