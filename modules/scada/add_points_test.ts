import assert from "node:assert/strict";
import { fieldIssues } from "../../kernel/mod.ts";
import { addPointsInput, planAddedPoints, type PlannedPoint, SCADA_LIMITS } from "./contract.ts";

const node = (id: string, feeders: number) => ({
  id,
  feeders: Array.from({ length: feeders }, (_, k) => ({ id: `${id}-f${k + 1}` })),
});
const point = (
  ioa: number,
  node_id: string,
  quantity: PlannedPoint["quantity"],
  feeder_id: string | null = null,
  phase: number | null = null,
  activated = true,
): PlannedPoint => ({ ioa, node_id, feeder_id, quantity, phase, activated });
const brief = (list: PlannedPoint[]) =>
  list.map((p) =>
    `${p.ioa}:${p.node_id}:${p.quantity}${p.feeder_id ? `@${p.feeder_id}` : ""}${p.phase ?? ""}`
  );

Deno.test("added values follow their node's last point, on the next free addresses", () => {
  const existing = [
    point(10, "a", "U", "a-f1", 1),
    point(11, "a", "NODE_STATE", null, null, false),
    point(20, "b", "NODE_STATE"),
  ];
  const plan = planAddedPoints(existing, [node("a", 2), node("b", 0), node("c", 1)], [
    "FREQUENCY",
    "P",
  ], null);
  assert.equal(plan.problem, null);
  assert.equal(plan.added, 1 + 6 + 1 + 3);
  assert.deepEqual(brief(plan.points), [
    "10:a:U@a-f11",
    "11:a:NODE_STATE",
    "21:a:P@a-f11",
    "22:a:P@a-f12",
    "23:a:P@a-f13",
    "24:a:P@a-f21",
    "25:a:P@a-f22",
    "26:a:P@a-f23",
    "27:a:FREQUENCY",
    "20:b:NODE_STATE",
    // b has no LV feeder: no frequency, no P; c had no point: its points go to the end.
    "28:c:P@c-f11",
    "29:c:P@c-f12",
    "30:c:P@c-f13",
    "31:c:FREQUENCY",
  ]);
  // Existing points untouched (address, activation, order).
  assert.deepEqual(plan.points[1], existing[1]);
});

Deno.test("points held already are not added again; U goes to the first feeder unless chosen", () => {
  const existing = [point(1, "a", "U", "a-f1", 1), point(2, "a", "CELL_CONNECTED")];
  const plan = planAddedPoints(existing, [node("a", 2)], ["U", "CELL_CONNECTED"], null);
  assert.deepEqual(brief(plan.points.slice(2)), ["3:a:U@a-f12", "4:a:U@a-f13"]);
  assert.equal(plan.added, 2);
  const chosen = planAddedPoints(existing, [node("a", 2)], ["U", "I"], ["a-f2"]);
  assert.deepEqual(brief(chosen.points.slice(2)), [
    "3:a:U@a-f21",
    "4:a:U@a-f22",
    "5:a:U@a-f23",
    "6:a:I@a-f21",
    "7:a:I@a-f22",
    "8:a:I@a-f23",
  ]);
  assert.equal(planAddedPoints(existing, [node("a", 2)], ["CELL_CONNECTED"], null).added, 0);
});

Deno.test("above the highest address first, then the free ones below it", () => {
  const existing = [
    point(3, "a", "NODE_STATE"),
    point(SCADA_LIMITS.ioaMax - 1, "a", "U", "a-f1", 1),
  ];
  const plan = planAddedPoints(existing, [node("a", 1)], ["U"], null);
  assert.deepEqual(plan.points.slice(2).map((p) => p.ioa), [SCADA_LIMITS.ioaMax, 1]);
  assert.equal(new Set(plan.points.map((p) => p.ioa)).size, plan.points.length);
});

Deno.test("refused beyond the profile's maximum of points, nothing changed", () => {
  const full = Array.from(
    { length: SCADA_LIMITS.pointsMax - 2 },
    (_, k) => point(k + 1, `n${k}`, "NODE_STATE"),
  );
  const over = planAddedPoints(full, [node("a", 1)], ["U"], null);
  assert.deepEqual(over.problem, {
    key: "validation.scadaPointsMax",
    params: { max: SCADA_LIMITS.pointsMax, count: SCADA_LIMITS.pointsMax + 1 },
  });
  assert.equal(over.added, 0);
  assert.equal(over.points.length, full.length);
});

Deno.test("the request: value kinds and nodes required, known values only", () => {
  const keys = (input: unknown) => {
    const parsed = addPointsInput.safeParse(input);
    return parsed.success
      ? []
      : fieldIssues(parsed.error.issues, input).map((i) => `${i.path}:${i.key}`);
  };
  assert.deepEqual(keys({ quantities: ["P"], node_ids: ["a"] }), []);
  assert.equal(addPointsInput.parse({ quantities: ["P"], node_ids: ["a"] }).feeder_ids, null);
  assert.deepEqual(keys({ quantities: [], node_ids: [] }), [
    "quantities:validation.required",
    "node_ids:validation.required",
  ]);
  assert.deepEqual(keys({ quantities: ["W"], node_ids: ["a"] }), [
    "quantities.0:validation.invalidChoice",
  ]);
});
