import assert from "node:assert/strict";
import type { PointDto } from "../../../../modules/scada/contract.ts";
import {
  checkProfile,
  emptyProfileForm,
  moveItem,
  pointsFromCsv,
  pointsToCsv,
} from "./scada-rules.ts";

Deno.test("checkProfile() mirrors the server's rules with the same keys", () => {
  const form = { ...emptyProfileForm(), name: "CC", ip_address: "10.1.2", port: "80", asdu: "" };
  assert.deepEqual(checkProfile(form), {
    name: { key: "validation.nameMin", params: { count: 3 } },
    ip_address: { key: "validation.ipInvalid" },
    port: { key: "validation.tcpPort" },
    asdu: { key: "validation.required" },
  });
  const ok = { ...emptyProfileForm(), name: "Control", ip_address: "10.1.2.3", asdu: "1" };
  assert.deepEqual(checkProfile(ok), {});
  assert.deepEqual(checkProfile({ ...ok, timers: { ...ok.timers, t2: "20" } }), {
    "timers.t2": { key: "validation.scadaT2BelowT1" },
  });
  assert.deepEqual(checkProfile({ ...ok, port: "" }), { port: { key: "validation.required" } });
});

Deno.test("a point list goes to CSV and back in the same order", () => {
  const points: PointDto[] = [
    {
      ioa: 2,
      node_id: "n1",
      feeder_id: "f1",
      quantity: "U",
      phase: 1,
      activated: true,
      data_type: "FLOAT",
      element_type: "FEEDER",
      element_name: 'TS "Seeblick"; L1',
      known: true,
    },
    {
      ioa: 1,
      node_id: "n1",
      feeder_id: null,
      quantity: "NODE_STATE",
      phase: null,
      activated: false,
      data_type: "SINGLE_POINT",
      element_type: "NODE",
      element_name: "TS Seeblick",
      known: true,
    },
  ];
  const csv = pointsToCsv(points);
  assert.match(csv, /^ioa;element_name;quantity;phase;data_type;activated;node_id;feeder_id\r\n/);
  assert.match(csv, /"TS ""Seeblick""; L1"/);
  assert.deepEqual(pointsFromCsv(csv), {
    points: [
      { ioa: 2, node_id: "n1", feeder_id: "f1", quantity: "U", phase: 1, activated: true },
      {
        ioa: 1,
        node_id: "n1",
        feeder_id: null,
        quantity: "NODE_STATE",
        phase: null,
        activated: false,
      },
    ],
    problem: null,
  });
  assert.deepEqual(pointsFromCsv("ioa,node_id,quantity\n70000,n1,U\n").problem, {
    line: 2,
    key: "validation.scadaAddressRange",
  });
});

Deno.test("moveItem() moves one item up or down, clamped, and leaves the others in order", () => {
  const list = ["a", "b", "c", "d"];
  assert.deepEqual(moveItem(list, 0, 2), ["b", "c", "a", "d"]);
  assert.deepEqual(moveItem(list, 3, 1), ["a", "d", "b", "c"]);
  assert.deepEqual(moveItem(list, 1, -5), ["b", "a", "c", "d"]);
  assert.deepEqual(moveItem(list, 1, 99), ["a", "c", "d", "b"]);
  assert.equal(moveItem(list, 2, 2), list);
  assert.deepEqual(list, ["a", "b", "c", "d"]);
});

Deno.test("checkProfile() checks the deadbands with the server's key; a comma is a decimal mark", () => {
  const ok = { ...emptyProfileForm(), name: "Control", ip_address: "10.1.2.3", asdu: "1" };
  assert.deepEqual(ok.deadbands, { U: "0", I: "0", P: "0", Q: "0", FREQUENCY: "0" });
  assert.deepEqual(checkProfile({ ...ok, deadbands: { ...ok.deadbands, U: "0,5" } }), {});
  assert.deepEqual(checkProfile({ ...ok, deadbands: { ...ok.deadbands, P: "-1", Q: "" } }), {
    "deadbands.P": { key: "validation.scadaDeadbandRange" },
    "deadbands.Q": { key: "validation.required" },
  });
});
