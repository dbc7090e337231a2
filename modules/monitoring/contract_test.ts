import assert from "node:assert/strict";
import { STATES } from "../../core/mod.ts";
import {
  AUTOMATIC_DURATIONS,
  GRID_STATES,
  isAllowedDuration,
  isDelta,
  MANUAL_DURATIONS,
  nodeStatusDto,
  triggerCreateInput,
} from "./contract.ts";

Deno.test("isAllowedDuration() accepts manual 1-5, 10-60 step 10 and 120-1440 step 60 and refuses the gaps", () => {
  for (const ok of [1, 2, 3, 4, 5, 10, 20, 30, 40, 50, 60, 120, 180, 720, 1380, 1440]) {
    assert.ok(isAllowedDuration("MANUAL", ok), `${ok} min`);
  }
  for (const refused of [0, -1, 6, 9, 15, 61, 70, 110, 119, 121, 150, 1439, 1500, 2.5, NaN]) {
    assert.ok(!isAllowedDuration("MANUAL", refused), `${refused} min`);
  }
});

Deno.test("isAllowedDuration() accepts automatic 1-5 and 10-60 step 10 only", () => {
  for (const ok of [1, 5, 10, 60]) assert.ok(isAllowedDuration("AUTOMATIC", ok), `${ok} min`);
  for (const refused of [0, 6, 70, 120, 1440]) {
    assert.ok(!isAllowedDuration("AUTOMATIC", refused), `${refused} min`);
  }
});

Deno.test("MANUAL_DURATIONS lists 5 + 6 + 23 durations in ascending order", () => {
  assert.equal(AUTOMATIC_DURATIONS.length, 11);
  assert.equal(MANUAL_DURATIONS.length, 34);
  assert.deepEqual([...MANUAL_DURATIONS].sort((a, b) => a - b), [...MANUAL_DURATIONS]);
  assert.equal(MANUAL_DURATIONS.at(-1), 1440);
});

Deno.test("GRID_STATES of the contract are the states the streaming core evaluates, in order", () => {
  assert.deepEqual([...GRID_STATES], [...STATES]);
});

Deno.test("isDelta() accepts 1 to 3000 A with at most 2 decimals", () => {
  for (const ok of [1, 1.5, 12.34, 3000]) assert.ok(isDelta(ok), String(ok));
  for (const refused of [0.99, 3000.01, 12.345, -5, NaN]) {
    assert.ok(!isDelta(refused), String(refused));
  }
});

Deno.test("nodeStatusDto: the summary view's node has no feeders, the full view's has them", () => {
  const node = {
    id: "n1",
    name: "TS Dorf",
    latitude: 47,
    longitude: 8,
    upstream_node_id: null,
    electrical_work: { name: "TS Dorf", type: "MV_LV_STATION" },
    has_mv_values: true,
    state: "OK",
    suppressed_by: null,
    last_value_at: null,
  };
  assert.ok(nodeStatusDto.safeParse(node).success);
  assert.ok(nodeStatusDto.safeParse({ ...node, feeders: [] }).success);
});

Deno.test("triggerCreateInput refuses a duration outside the automatic list and 3 decimals", () => {
  const body = { node_id: null, delta_lv_a: 10, delta_mv_a: 5, duration_min: 10 };
  assert.ok(triggerCreateInput.safeParse(body).success);
  const bad = triggerCreateInput.safeParse({ ...body, duration_min: 120, delta_lv_a: 1.234 });
  assert.deepEqual(bad.error?.issues.map((i) => [i.path.join("."), i.message]), [
    ["delta_lv_a", "validation.range"],
    ["duration_min", "validation.invalidChoice"],
  ]);
});
