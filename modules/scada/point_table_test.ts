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
      p: (id) => (u.get(id) ?? NaN) / 100,
      q: (id) => (i.get(id) ?? NaN) / 100,
      f: (id) => ts.has(id) ? 50 + id / 100 : NaN,
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

const powerPoints: StoredPoint[] = [
  { ioa: 10, node_id: "n1", feeder_id: "f1", quantity: "P", phase: 1, activated: true },
  { ioa: 11, node_id: "n1", feeder_id: "f1", quantity: "Q", phase: 2, activated: true },
  { ioa: 12, node_id: "n1", feeder_id: null, quantity: "FREQUENCY", phase: null, activated: true },
];

Deno.test("P and Q per phase and the node's frequency (its first LV feeder's L1) are sent as floats", () => {
  const src = source();
  const table = new PointTable(powerPoints, grid);
  table.prime(src, NOW);
  assert.deepEqual(table.snapshot(src, NOW).floats.map((v) => [v.ioa, v.quality]), [
    [10, QUALITY.IV | QUALITY.NT],
    [11, QUALITY.IV | QUALITY.NT],
    [12, QUALITY.IV | QUALITY.NT],
  ]);
  src.set(0, NOW - 1000, 230, 10); // L1: p = 2.3 kW, f = 50 Hz (series 0)
  src.set(1, NOW - 1000, 231, 25); // L2: q = 0.25 kvar
  const spont = table.newValues(src, NOW);
  assert.deepEqual(spont.map((v) => [v.ioa, v.value, v.quality, v.at]), [
    [10, 2.3, 0, NOW - 1000],
    [11, 0.25, 0, NOW - 1000],
    [12, 50, 0, NOW - 1000],
  ]);
  assert.deepEqual(table.snapshot(src, NOW).floats.map((v) => [v.ioa, v.value, v.quality]), [
    [10, 2.3, 0],
    [11, 0.25, 0],
    [12, 50, 0],
  ]);
});

Deno.test("a deadband holds back a new value that moved less than it, not a quality change", () => {
  const src = source();
  const table = new PointTable(points.slice(0, 2), grid, { U: 2 });
  table.prime(src, NOW);
  src.set(0, NOW - 40_000, 230, 10);
  src.set(1, NOW - 40_000, 230, 11);
  assert.deepEqual(table.newValues(src, NOW).map((v) => [v.ioa, v.value]), [[1, 230], [2, 11]]);
  src.set(0, NOW - 20_000, 231.5, 10); // U moved 1.5 V < 2 V: held back
  src.set(1, NOW - 20_000, 231.5, 11); // I has no deadband: sent though unchanged
  assert.deepEqual(table.newValues(src, NOW).map((v) => [v.ioa, v.value]), [[2, 11]]);
  src.set(0, NOW, 232, 10); // 2 V from the value last sent (230): sent
  src.set(1, NOW, 232, 11);
  assert.deepEqual(table.newValues(src, NOW).map((v) => [v.ioa, v.value]), [[1, 232], [2, 11]]);
  // The same value gone stale (IV + NT) is sent: the quality changed.
  src.set(0, NOW + 1, 232, 10);
  const late = table.newValues(src, NOW + 1 + STALE_MS);
  assert.deepEqual(late.map((v) => [v.ioa, v.quality]), [[1, QUALITY.IV | QUALITY.NT]]);
});

Deno.test("a rebuilt table takes over what was sent only for points of the same kind", () => {
  const src = source();
  src.set(0, NOW - 1000, 230, 10);
  const old = new PointTable(powerPoints, grid);
  old.prime(src, NOW);
  const swapped = powerPoints.map((p) => p.ioa === 10 ? { ...p, quantity: "Q" as const } : p);
  const table = new PointTable(swapped, grid);
  table.inherit(old);
  // IOA 10 is now Q (never sent), IOA 12 (frequency) was sent already.
  assert.deepEqual(table.newValues(src, NOW).map((v) => v.ioa), [10]);
});
