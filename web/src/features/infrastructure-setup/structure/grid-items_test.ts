import assert from "node:assert/strict";
import type { StationGroup } from "./grid-api.ts";
import {
  deleteBlocker,
  formatItem,
  locate,
  parseItem,
  structurePoints,
  suggestedPosition,
} from "./grid-items.ts";

const node = (id: string, lat: number, lng: number) => ({
  id,
  name: `Node ${id}`,
  latitude: lat,
  longitude: lng,
  electrical_distance: 0,
  upstream_node_id: null,
  electrical_work: {
    key: `k${id}`,
    name: `EW ${id}`,
    type: "LV_CABINET" as const,
    latitude: lat,
    longitude: lng,
  },
  feeders: [],
});

const STRUCTURE: StationGroup[] = [{
  id: "s",
  name: "Station",
  latitude: null,
  longitude: null,
  mv_feeder_groups: [{
    id: "m",
    name: "MV",
    lv_groups: [{ id: "l", name: "LV", nodes: [node("a", 47, 8), node("b", 47.2, 8.2)] }],
  }],
}];

Deno.test("locate() returns the item with its ancestors", () => {
  const found = locate(STRUCTURE, { kind: "node", id: "b" });
  assert.equal(found?.station.id, "s");
  assert.equal(found?.lv?.id, "l");
  assert.equal(found?.node?.id, "b");
  assert.equal(locate(STRUCTURE, { kind: "lvGroup", id: "x" }), null);
});

Deno.test("structurePoints() places groups at the centre of their nodes", () => {
  const points = structurePoints(STRUCTURE, (_, item) => item.name);
  const byId = new Map(points.map((p) => [p.id, p]));
  assert.equal(byId.get("a")?.kind, "node");
  assert.ok(Math.abs(byId.get("l")!.latitude - 47.1) < 1e-9);
  assert.ok(Math.abs(byId.get("s")!.longitude - 8.1) < 1e-9);
  assert.equal(points.length, 5);
});

Deno.test("parseItem() reads the selection of the URL and refuses malformed values", () => {
  assert.deepEqual(parseItem(formatItem({ kind: "node", id: "a-1" })), { kind: "node", id: "a-1" });
  assert.deepEqual(parseItem("lvGroup:x"), { kind: "lvGroup", id: "x" });
  assert.equal(parseItem("feeder:x"), null);
  assert.equal(parseItem("node:"), null);
  assert.equal(parseItem("node:../x"), null);
  assert.equal(parseItem(undefined), null);
});

Deno.test("suggestedPosition() is the centre of the LV group's nodes, none for an empty group", () => {
  const lv = STRUCTURE[0]!.mv_feeder_groups[0]!.lv_groups[0]!;
  assert.deepEqual(suggestedPosition(lv), { latitude: 47.1, longitude: 8.1 });
  assert.equal(suggestedPosition({ ...lv, nodes: [] }), null);
});

Deno.test("deleteBlocker() names the spec's rule before the delete question is asked", () => {
  assert.equal(
    deleteBlocker(STRUCTURE, { kind: "lvGroup", id: "l" }),
    "validation.deleteLvGridHasNodes",
  );
  assert.equal(
    deleteBlocker(STRUCTURE, { kind: "mvFeederGroup", id: "m" }),
    "validation.deleteMvFeederHasLvGrids",
  );
  assert.equal(
    deleteBlocker(STRUCTURE, { kind: "station", id: "s" }),
    "validation.deleteStationHasMvFeeders",
  );
  assert.equal(deleteBlocker(STRUCTURE, { kind: "node", id: "a" }), null);
  const empty: StationGroup[] = [{
    ...STRUCTURE[0]!,
    mv_feeder_groups: [{ id: "m", name: "MV", lv_groups: [{ id: "l", name: "LV", nodes: [] }] }],
  }];
  assert.equal(deleteBlocker(empty, { kind: "lvGroup", id: "l" }), null);
  const oneFeeder = structuredClone(STRUCTURE);
  const a = oneFeeder[0]!.mv_feeder_groups[0]!.lv_groups[0]!.nodes[0]!;
  (a.feeders as unknown[]).push({ id: "f1" });
  assert.equal(
    deleteBlocker(oneFeeder, { kind: "feeder", id: "f1", nodeId: "a" }),
    "validation.deleteLastFeeder",
  );
});
