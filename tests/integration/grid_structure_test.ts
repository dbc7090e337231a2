/** GET /gsm/grid-structure/hv-mv-station-groups: the demo grid, per customer. */
import assert from "node:assert/strict";
import { DEMO_USERS, OTHER_ADMIN } from "../../modules/demo/mod.ts";
import type { StationGroupDto } from "../../modules/grid/mod.ts";
import { startTestPlatform } from "../helpers/platform.ts";

Deno.test({
  name:
    "GET /gsm/grid-structure/hv-mv-station-groups returns the customer's hierarchy down to feeders",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const platform = await startTestPlatform("pglite");
    try {
      const operator = await platform.login(DEMO_USERS[4].email, DEMO_USERS[4].password);
      const res = await platform.request("/gsm/grid-structure/hv-mv-station-groups", {
        token: operator.access_token,
      });
      assert.equal(res.status, 200);
      const groups = await res.json() as StationGroupDto[];
      assert.equal(groups.length, 1);
      const lvGroups = groups[0]!.mv_feeder_groups.flatMap((mv) => mv.lv_groups);
      assert.equal(groups[0]!.mv_feeder_groups.length, 3);
      assert.equal(lvGroups.length, 5);
      const nodes = lvGroups.flatMap((lv) => lv.nodes);
      assert.equal(nodes.length, 20);
      const station = nodes.find((n) => n.name === "TS Seeblick")!;
      assert.equal(station.electrical_work.type, "MV_LV_STATION");
      assert.equal(station.feeders[0]!.type, "TRANSFORMER");
      assert.equal(station.upstream_node_id, null);
      const cabinet = nodes.find((n) => n.name === "CAB Seeblick 1")!;
      assert.equal(
        cabinet.upstream_node_id,
        station.id,
        "cabinets hang below their transformer station",
      );
      assert.ok(nodes.every((n) => n.feeders.length >= 2 && n.feeders.length <= 6));

      const other = await platform.login(OTHER_ADMIN.email, OTHER_ADMIN.password);
      const foreign = await platform.request("/gsm/grid-structure/hv-mv-station-groups", {
        token: other.access_token,
      });
      const theirs = await foreign.json() as { name: string }[];
      assert.deepEqual(
        theirs.map((g) => g.name),
        ["Substation Bern West"],
        "another utility sees only its own grid",
      );
    } finally {
      await platform.close();
    }
  },
});
