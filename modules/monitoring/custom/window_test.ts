import assert from "node:assert/strict";
import type { RawSeries } from "../../../core/mod.ts";
import type { MonitoredNode } from "./nodes.ts";
import type { RequestDto } from "./requests.ts";
import { MAX_WINDOW_MS, requestValues, requestWindow } from "./window.ts";

const T0 = Date.parse("2026-11-22T10:00:00Z");
const iso = (ms: number) => new Date(ms).toISOString();

const request = (extra: Partial<RequestDto> = {}): RequestDto => ({
  id: "r1",
  node_id: "n1",
  feeder_id: null,
  cell_id: "C1",
  kind: "MANUAL",
  trigger_id: null,
  duration_min: 5,
  started_at: iso(T0),
  ends_at: iso(T0 + 300_000),
  stopped_at: null,
  status: "RUNNING",
  created_by: "u1",
  created_at: iso(T0),
  ...extra,
});

Deno.test("requestWindow() runs from the start to the stop, the end, or now without an end", () => {
  assert.deepEqual(requestWindow(request(), T0 + 60_000), { from: T0, to: T0 + 300_000 });
  const stopped = request({ stopped_at: iso(T0 + 120_000), status: "STOPPED" });
  assert.deepEqual(requestWindow(stopped, T0 + 600_000), { from: T0, to: T0 + 120_000 });
  const infinite = request({ duration_min: null, ends_at: null });
  assert.deepEqual(requestWindow(infinite, T0 + 60_000), { from: T0, to: T0 + 60_000 });
  assert.deepEqual(
    requestWindow(request(), T0, { from: T0 + 60_000, to: T0 + 120_000 }),
    { from: T0 + 60_000, to: T0 + 120_000 },
  );
});

Deno.test("requestWindow() answers the newest 1440 minutes of a longer request without end", () => {
  const infinite = request({ duration_min: null, ends_at: null });
  const now = T0 + 3 * MAX_WINDOW_MS;
  assert.deepEqual(requestWindow(infinite, now), { from: now - MAX_WINDOW_MS, to: now });
});

Deno.test("requestValues() serves only the requested feeder, with N when the cell reports it", async () => {
  const node: MonitoredNode = {
    id: "n1",
    name: "Node",
    electricalWorkName: "EW",
    customerKey: "c",
    cellId: "C1",
    feeders: [
      { id: "f1", slot: 1, name: "Line 1", level: "LV" },
      { id: "f2", slot: 2, name: "Line 2", level: "LV" },
    ],
  };
  // Series ids: slot * 10 + phase; slot 2 reports N (phase 3), slot 1 does not.
  const seriesId = (_cell: string, slot: number, phase: number) =>
    phase === 3 && slot === 1 ? undefined : slot * 10 + phase;
  const asked: number[][] = [];
  const read = (ids: readonly number[]) => {
    asked.push([...ids]);
    const out = new Map<number, RawSeries>();
    for (const id of ids) out.set(id, { ts: [T0], u: [230], i: [id] });
    return Promise.resolve(out);
  };
  const window = { from: T0, to: T0 + 300_000 };
  const one = await requestValues({ seriesId, read }, request({ feeder_id: "f2" }), node, window);
  assert.deepEqual(asked[0], [20, 21, 22, 23]);
  assert.deepEqual(one.feeders.map((f) => f.id), ["f2"]);
  assert.deepEqual(one.feeders[0]!.phases.map((p) => [p.phase, p.i[0], p.u[0]]), [
    ["L1", 20, 230],
    ["L2", 21, 230],
    ["L3", 22, 230],
    ["N", 23, null],
  ]);
  const all = await requestValues({ seriesId, read }, request(), node, window);
  assert.deepEqual(all.feeders[0]!.phases.map((p) => p.phase), ["L1", "L2", "L3"]);
  const gone = await requestValues({ seriesId, read }, request(), null, window);
  assert.deepEqual(gone.feeders, []);
  assert.equal(gone.from, iso(T0));
});
