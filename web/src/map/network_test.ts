import assert from "node:assert/strict";
import type { StationGroupDto } from "../../../modules/grid/contract.ts";
import type { MapState } from "./map-types.ts";
import { buildNetwork, labelPoint, runsOf, topologicalOrder, worstState } from "./network.ts";

type N = { id: string; upstream_node_id: string | null };
const n = (id: string, up: string | null = null): N => ({ id, upstream_node_id: up });
const ids = (list: { node: N; parent: N | null }[]) =>
  list.map((e) => `${e.parent?.id ?? "-"}>${e.node.id}`);

Deno.test("topologicalOrder() puts every node after its upstream node, whatever the list order", () => {
  // c hangs on b, b on a; listed backwards.
  assert.deepEqual(ids(topologicalOrder([n("c", "b"), n("b", "a"), n("a")])), [
    "->a",
    "a>b",
    "b>c",
  ]);
});

Deno.test("topologicalOrder() follows branches depth first, children in the structure's order", () => {
  const order = topologicalOrder([n("a"), n("b", "a"), n("x", "a"), n("c", "b")]);
  assert.deepEqual(ids(order), ["->a", "a>b", "b>c", "a>x"]);
});

Deno.test("topologicalOrder() hangs a node without upstream on the node before it (feeder order)", () => {
  assert.deepEqual(ids(topologicalOrder([n("a"), n("b"), n("c", "b")])), ["->a", "a>b", "b>c"]);
});

Deno.test("topologicalOrder() survives cycles and upstream nodes outside the group", () => {
  const order = topologicalOrder([n("a", "b"), n("b", "a"), n("c", "elsewhere")]);
  assert.equal(order.length, 3);
  assert.deepEqual(new Set(order.map((e) => e.node.id)), new Set(["a", "b", "c"]));
  assert.equal(topologicalOrder([n("self", "self")]).length, 1);
});

Deno.test("runsOf() draws a chain as one line and a branch as a line from its branch point", () => {
  const at = (node: N) => [Number(node.id.charCodeAt(0)), 0] as [number, number];
  const chain = runsOf(topologicalOrder([n("a"), n("b", "a"), n("c", "b")]), at);
  assert.deepEqual(chain, [[[97, 0], [98, 0], [99, 0]]]);
  const branched = runsOf(topologicalOrder([n("a"), n("b", "a"), n("c", "b"), n("x", "a")]), at);
  assert.deepEqual(branched, [[[97, 0], [98, 0], [99, 0]], [[97, 0], [120, 0]]]);
  assert.deepEqual(runsOf(topologicalOrder([n("a")]), at), []);
});

Deno.test("worstState() ranks critical over warning over no data over unknown over ok", () => {
  assert.equal(worstState(["ok", "warning", "offline"]), "warning");
  assert.equal(worstState(["ok", "critical", "warning"]), "critical");
  assert.equal(worstState(["ok", "offline"]), "offline");
  assert.equal(worstState(["ok", undefined]), "ok");
  assert.equal(worstState([]), "unknown");
});

Deno.test("labelPoint() is halfway along the longest line", () => {
  assert.deepEqual(labelPoint([[[0, 0], [2, 0]], [[0, 0], [0, 10]]]), [0, 5]);
  assert.deepEqual(labelPoint([[[0, 0], [4, 0], [4, 4]]]), [4, 0]);
  assert.equal(labelPoint([]), null);
});

const node = (id: string, lng: number, up: string | null) => ({
  id,
  name: id,
  latitude: 47,
  longitude: lng,
  electrical_distance: 0,
  upstream_node_id: up,
  electrical_work: { key: id, name: id, type: "LV_CABINET" as const, latitude: 47, longitude: lng },
  feeders: [],
});

const STRUCTURE: StationGroupDto[] = [{
  id: "s",
  name: "Substation",
  latitude: 47,
  longitude: 8,
  mv_feeder_groups: [{
    id: "mv1",
    name: "MV feeder 1",
    lv_groups: [
      { id: "lv1", name: "LV 1", nodes: [node("t1", 8.1, null), node("c1", 8.2, "t1")] },
      { id: "lv2", name: "LV 2", nodes: [node("c2", 7.8, "t2"), node("t2", 7.9, null)] },
    ],
  }],
}];

Deno.test("buildNetwork() draws station -> MV feeder -> LV group heads -> nodes in order", () => {
  const states: Record<string, MapState> = { t1: "ok", c1: "warning", t2: "ok", c2: "offline" };
  const net = buildNetwork(STRUCTURE, (id) => states[id]);
  const lines = Object.fromEntries(net.lines.features.map((f) => [f.properties!.id, f]));
  // The MV feeder feeds each LV group's head (its transformer) from the station, a span each in
  // the state of its head.
  const spans = net.lines.features.filter((f) => f.properties!.id === "mv1");
  assert.deepEqual(spans.map((f) => [f.geometry.coordinates, f.properties!.state]), [
    [[[[8, 47], [8.1, 47]]], "ok"],
    [[[[8, 47], [7.9, 47]]], "ok"],
  ]);
  // An LV group's line follows its nodes from the head outwards, listed in any order.
  assert.deepEqual(lines.lv1!.geometry.coordinates, [[[8.1, 47], [8.2, 47]]]);
  assert.deepEqual(lines.lv2!.geometry.coordinates, [[[7.9, 47], [7.8, 47]]]);
  // Each line takes the worst state along it.
  assert.equal(lines.lv1!.properties!.state, "warning");
  assert.equal(lines.lv2!.properties!.state, "offline");
  // The MV feeder: the states of the transformers it feeds (t1, t2), not of every LV cabinet.
  assert.equal(net.places.features[2]!.properties!.state, "ok");
  const places = net.places.features.map((f) => [f.properties!.kind, f.properties!.name]);
  assert.deepEqual(places, [
    ["lvGroup", "LV 1"],
    ["lvGroup", "LV 2"],
    ["mvFeederGroup", "MV feeder 1"],
    ["station", "Substation"],
  ]);
  assert.equal(net.places.features.at(-1)!.properties!.state, "warning");
});

Deno.test("buildNetwork() at MV leaves the LV lines out; without station coordinates the MV feeder links the heads", () => {
  const mv = buildNetwork(STRUCTURE, (id) => (id === "t1" ? "critical" : undefined), { lv: false });
  assert.deepEqual(mv.lines.features.map((f) => [f.properties!.kind, f.properties!.state]), [
    ["mvFeederGroup", "critical"],
    // t2 has no value at this level.
    ["mvFeederGroup", "unknown"],
  ]);
  const noStation = buildNetwork(
    [{ ...STRUCTURE[0]!, latitude: null, longitude: null }],
    () => "ok",
  );
  const feeder = noStation.lines.features.find((f) => f.properties!.kind === "mvFeederGroup")!;
  assert.deepEqual(feeder.geometry.coordinates, [[[8.1, 47], [7.9, 47]]]);
  assert.ok(!noStation.places.features.some((f) => f.properties!.kind === "station"));
});

Deno.test("buildNetwork() runs an MV feeder group with a saved MV topology through its nodes in order", () => {
  const states: Record<string, MapState> = { t1: "ok", c1: "warning", t2: "critical", c2: "ok" };
  const mvOrder = new Map([["mv1", ["t2", "unknown-node", "t1"]]]);
  const net = buildNetwork(STRUCTURE, (id) => states[id], { mvOrder });
  const spans = net.lines.features.filter((f) => f.properties!.id === "mv1");
  // Station -> t2 -> t1 (a node of the topology outside the group is skipped), each span in the
  // state of the node it reaches.
  assert.deepEqual(spans.map((f) => [f.geometry.coordinates, f.properties!.state]), [
    [[[[8, 47], [7.9, 47]]], "critical"],
    [[[[7.9, 47], [8.1, 47]]], "ok"],
  ]);
  // Without a topology the star of spans from the station stays.
  const star = buildNetwork(STRUCTURE, (id) => states[id], { mvOrder: new Map() });
  assert.equal(star.lines.features.filter((f) => f.properties!.id === "mv1").length, 2);
});
