import assert from "node:assert/strict";
import type { GridStatus, NodeStatus } from "./grid-types.ts";
import { alignPhases, deltaError, findNode, listRows, mvAvailable, passesFilter } from "./logic.ts";

const node = (id: string, state: NodeStatus["state"], hasMv = false): NodeStatus => ({
  id,
  name: id,
  latitude: 47,
  longitude: 8,
  upstream_node_id: null,
  electrical_work: { name: id, type: "LV_CABINET" },
  has_mv_values: hasMv,
  state,
  suppressed_by: null,
  last_value_at: null,
});

const status = {
  level: "LV",
  evaluated_at: "2026-11-22T10:00:00.000Z",
  has_mv_values: false,
  alarms: 1,
  counts: { OK: 2, UNDERVOLTAGE: 1, OVERVOLTAGE: 0, OVERCURRENT: 0, NO_DATA: 0, INTERRUPTION: 0 },
  station_groups: [{
    id: "s",
    name: "S",
    state: "UNDERVOLTAGE",
    mv_feeder_groups: [{
      id: "m",
      name: "M",
      state: "UNDERVOLTAGE",
      lv_groups: [
        { id: "l1", name: "L1", state: "OK", nodes: [node("a", "OK"), node("b", "OK")] },
        { id: "l2", name: "L2", state: "UNDERVOLTAGE", nodes: [node("c", "UNDERVOLTAGE")] },
      ],
    }],
  }],
} satisfies GridStatus;

Deno.test("listRows: groups above their nodes, empty groups left out by a filter", () => {
  assert.deepEqual(
    listRows(status, () => true).map((r) => `${r.kind}:${r.id}`),
    ["station:s", "mv:m", "lv:l1", "node:a", "node:b", "lv:l2", "node:c"],
  );
  const warned = listRows(status, (n) => n.state !== "OK");
  assert.deepEqual(warned.map((r) => r.id), ["s", "m", "l2", "c"]);
  assert.deepEqual(warned.at(-1)!.path, ["S", "M", "L2"]);
  assert.deepEqual(listRows(status, () => false), []);
});

Deno.test("listRows: a group row counts its nodes per state, not one worst dot", () => {
  const counts = (rows: ReturnType<typeof listRows>, id: string) => {
    const row = rows.find((r) => r.id === id);
    return row && row.kind !== "node" ? row.counts : undefined;
  };
  const rows = listRows(status, () => true);
  assert.deepEqual(counts(rows, "s"), { OK: 2, UNDERVOLTAGE: 1 });
  assert.deepEqual(counts(rows, "m"), { OK: 2, UNDERVOLTAGE: 1 });
  assert.deepEqual(counts(rows, "l1"), { OK: 2 });
  // A filter hides nodes, not the group's distribution.
  assert.deepEqual(counts(listRows(status, (n) => n.state !== "OK"), "s"), {
    OK: 2,
    UNDERVOLTAGE: 1,
  });
});

Deno.test("deltaError mirrors the server: required, 1 to 3000 A, at most 2 decimals", () => {
  assert.equal(deltaError(""), "required");
  assert.equal(deltaError("  "), "required");
  assert.equal(deltaError("0.99"), "range");
  assert.equal(deltaError("1"), null);
  assert.equal(deltaError("50,25"), null);
  assert.equal(deltaError("50.125"), "range");
  assert.equal(deltaError("3000"), null);
  assert.equal(deltaError("3000.01"), "range");
  assert.equal(deltaError("-5"), "range");
});

Deno.test("alignPhases: one axis, nulls for missing values and a null slot in a gap", () => {
  const { times, currents } = alignPhases([
    { phase: "L1", t: [0, 20_000, 100_000], u: [230, 230, 230], i: [1, 2, 3] },
    { phase: "L2", t: [20_000, 100_000], u: [230, 230], i: [5, 6] },
  ]);
  assert.deepEqual(times, [0, 20_000, 40_000, 100_000]);
  assert.deepEqual(currents, [[1, 2, null, 3], [null, 5, null, 6]]);
});

Deno.test("mvAvailable() follows the selected node: disabled for a cabinet without MV values", () => {
  const grid = {
    ...status,
    has_mv_values: true,
    station_groups: [{
      ...status.station_groups[0]!,
      mv_feeder_groups: [{
        ...status.station_groups[0]!.mv_feeder_groups[0]!,
        lv_groups: [{
          id: "l1",
          name: "L1",
          state: "OK" as const,
          nodes: [
            node("ts", "OK", true),
            node("cab", "OK"),
          ],
        }],
      }],
    }],
  } satisfies GridStatus;
  assert.equal(mvAvailable(grid, null), true);
  assert.equal(mvAvailable(grid, "ts"), true);
  assert.equal(mvAvailable(grid, "cab"), false);
  assert.equal(mvAvailable(grid, "unknown"), true);
  assert.equal(mvAvailable(status, null), false, "a grid without MV values");
  assert.equal(mvAvailable(null, "cab"), true, "nothing loaded yet");
  assert.equal(findNode(grid, "cab")?.name, "cab");
});

Deno.test("passesFilter(): the alarm filter keeps nodes not OK that no upstream outage explains", () => {
  const silent = node("s", "NO_DATA");
  const downstream = { ...node("d", "NO_DATA"), suppressed_by: "s" };
  assert.equal(passesFilter(silent, "ALARMS"), true);
  assert.equal(passesFilter(downstream, "ALARMS"), false);
  assert.equal(passesFilter(node("ok", "OK"), "ALARMS"), false);
  assert.equal(passesFilter(downstream, "NO_DATA"), true);
  assert.equal(passesFilter(downstream, null), true);
});
