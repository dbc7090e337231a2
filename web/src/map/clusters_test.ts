import assert from "node:assert/strict";
import {
  clusterImageId,
  clusterProperties,
  clusterShares,
  clusterSize,
  countsOfImageId,
  RING_STATES,
} from "./clusters.ts";
import { CLUSTER_MAX_ZOOM, visibleAt, ZOOM_BY_KIND, ZOOM_RULES } from "./map-types.ts";

Deno.test("clusterShares() gives each state its share of the ring, worst first, adding up to 1", () => {
  const ring = clusterShares({ ok: 19, offline: 1 });
  assert.deepEqual(ring.map((s) => [s.state, s.count]), [["offline", 1], ["ok", 19]]);
  assert.equal(ring[0]!.from, 0);
  assert.equal(ring[0]!.to, 0.05);
  assert.equal(ring[1]!.from, 0.05);
  assert.equal(ring[1]!.to, 1);
  // One node without data no longer greys the whole cluster: 95 % of the ring stays OK.
  assert.ok(ring[1]!.to - ring[1]!.from > 0.9);
  assert.deepEqual(clusterShares({}), []);
  const mixed = clusterShares({ critical: 1, warning: 1, ok: 2 });
  assert.deepEqual(mixed.map((s) => [s.state, s.from, s.to]), [
    ["critical", 0, 0.25],
    ["warning", 0.25, 0.5],
    ["ok", 0.5, 1],
  ]);
});

Deno.test("a ring's image name carries its counts and reads back", () => {
  const id = clusterImageId({ ok: 3, critical: 1 });
  assert.equal(id, "cluster:1:0:0:0:3");
  assert.deepEqual(countsOfImageId(id), { critical: 1, warning: 0, offline: 0, unknown: 0, ok: 3 });
  assert.equal(countsOfImageId("sym:LV_CABINET:ok"), null);
  assert.equal(countsOfImageId("cluster:1:2"), null);
  assert.equal(countsOfImageId("cluster:a:0:0:0:0"), null);
});

Deno.test("clusterProperties() counts each state of the members", () => {
  const props = clusterProperties();
  assert.deepEqual(Object.keys(props), [...RING_STATES]);
  assert.deepEqual(props.ok, ["+", ["case", ["==", ["get", "state"], "ok"], 1, 0]]);
});

Deno.test("clusterSize() grows with the member count in the legend's steps", () => {
  assert.equal(clusterSize(2), 30);
  assert.equal(clusterSize(9), 30);
  assert.equal(clusterSize(10), 38);
  assert.equal(clusterSize(150), 46);
  assert.equal(clusterSize(5000), 54);
});

Deno.test("the spec's zoom levels: named from its own level, drawn from its parent's", () => {
  assert.deepEqual(ZOOM_BY_KIND, {
    station: 10,
    mvFeederGroup: 13,
    lvGroup: 16,
    electricalWork: 18,
    node: 20,
  });
  assert.equal(ZOOM_RULES.mvFeederGroup.drawn, 10);
  assert.equal(ZOOM_RULES.lvGroup.drawn, 13);
  assert.equal(CLUSTER_MAX_ZOOM, 15);
  assert.deepEqual(visibleAt(6), { drawn: ["station"], named: [] });
  assert.deepEqual(visibleAt(12), { drawn: ["station", "mvFeederGroup"], named: ["station"] });
  assert.deepEqual(visibleAt(16).named, ["station", "mvFeederGroup", "lvGroup"]);
  assert.deepEqual(visibleAt(16).drawn, [
    "station",
    "mvFeederGroup",
    "lvGroup",
    "electricalWork",
    "node",
  ]);
  assert.deepEqual(visibleAt(18).named, ["station", "mvFeederGroup", "lvGroup", "electricalWork"]);
  assert.equal(visibleAt(20).named.length, 5);
});
