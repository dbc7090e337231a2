import assert from "node:assert/strict";
import type { FeederType } from "../../../../modules/grid/contract.ts";
import {
  feederIndex,
  feederLabel,
  filterTree,
  panelTree,
  splitFeeders,
  type VisualStatisticsView,
} from "./structure.ts";

const feeder = (id: string, name: string, type: FeederType = "LV_LINE", parameters = {}) => ({
  id,
  slot: 1,
  name,
  type,
  in_out: "IN" as const,
  nominal_current_a: 100,
  parameters,
});
const at = { latitude: 47, longitude: 8 };
const node = (id: string, name: string, feeders: ReturnType<typeof feeder>[]) => ({
  id,
  name,
  ...at,
  electrical_distance: 0,
  upstream_node_id: null,
  feeders,
});

const view: VisualStatisticsView = {
  has_mv_feeders: true,
  lv_groups: [
    {
      id: "g1",
      name: "LV grid Seeblick",
      station_group: { id: "s", name: "Substation" },
      mv_feeder_group: { id: "m", name: "MV feeder" },
      electrical_works: [
        {
          key: "w1",
          name: "TS Seeblick",
          type: "MV_LV_STATION",
          ...at,
          nodes: [node("n1", "TS Seeblick", [
            feeder("t1", "Transformer", "TRANSFORMER", { mvVoltageEstimation: true }),
            feeder("l1", "LV line 1"),
            feeder("mv1", "MV line Nord", "MV_LINE"),
          ])],
        },
        {
          key: "w2",
          name: "CAB Mühlebach",
          type: "LV_CABINET",
          ...at,
          nodes: [node("n2", "Cabinet node", [feeder("l2", "Incoming line")])],
        },
      ],
    },
    {
      id: "g2",
      name: "LV grid Empty",
      station_group: { id: "s", name: "Substation" },
      mv_feeder_group: { id: "m", name: "MV feeder" },
      electrical_works: [{ key: "w3", name: "Nothing", type: "LV_CABINET", ...at, nodes: [] }],
    },
  ],
};

Deno.test("panelTree() keeps LV feeders at LV and MV feeders at MV, dropping empty branches", () => {
  const lv = panelTree(view, "lv");
  assert.deepEqual([...feederIndex(lv).keys()], ["l1", "l2"]);
  assert.deepEqual(lv.map((g) => g.id), ["g1"]);
  const mv = panelTree(view, "mv");
  assert.deepEqual([...feederIndex(mv).keys()], ["t1", "mv1"]);
  assert.deepEqual(mv[0]!.works.map((w) => w.key), ["w1"]);
});

Deno.test("filterTree() keeps a matching branch whole and otherwise only matching feeders", () => {
  const lv = panelTree(view, "lv");
  assert.deepEqual([...feederIndex(filterTree(lv, "seeblick")).keys()], ["l1", "l2"]);
  assert.deepEqual([...feederIndex(filterTree(lv, "muhlebach")).keys()], ["l2"]);
  assert.deepEqual([...feederIndex(filterTree(lv, "INCOMING")).keys()], ["l2"]);
  assert.deepEqual(filterTree(lv, "nowhere"), []);
  assert.deepEqual(filterTree(lv, "  "), lv);
});

Deno.test("feederLabel() names the node and the feeder, and the work when it differs", () => {
  const index = feederIndex(panelTree(view, "lv"));
  assert.equal(feederLabel(index.get("l1")!), "TS Seeblick › LV line 1");
  assert.equal(feederLabel(index.get("l2")!), "CAB Mühlebach › Cabinet node › Incoming line");
});

Deno.test("splitFeeders() tells feeders of this level, of the other level and unknown ones apart", () => {
  const lv = feederIndex(panelTree(view, "lv"));
  const mv = feederIndex(panelTree(view, "mv"));
  assert.deepEqual(splitFeeders(["l2", "mv1", "gone", "l1"], lv, mv), {
    known: ["l2", "l1"],
    otherLevel: ["mv1"],
    unknown: ["gone"],
  });
});
