import assert from "node:assert/strict";
import {
  FEEDER_FIELDS,
  feederIssues,
  hasThreePhaseMapping,
  nameIssue,
  NEW_NODE_NAME,
  numberIssue,
  VECTOR_GROUPS,
} from "./validation.ts";

Deno.test("nameIssue() gives the spec's messages for grid item names (3-60)", () => {
  assert.equal(nameIssue("name", "Substation South"), null);
  assert.deepEqual(nameIssue("name", ""), { path: "name", key: "validation.pleaseInputName" });
  assert.deepEqual(nameIssue("name", "ab"), {
    path: "name",
    key: "validation.nameMin",
    params: { count: 3 },
  });
  assert.deepEqual(nameIssue("name", "x".repeat(61))?.params, { count: 60 });
  assert.equal(nameIssue("name", "x".repeat(60)), null);
});

Deno.test("nameIssue() limits new node names to 20 characters", () => {
  assert.equal(nameIssue("name", "x".repeat(20), NEW_NODE_NAME), null);
  assert.deepEqual(nameIssue("name", "x".repeat(21), NEW_NODE_NAME)?.params, { count: 20 });
});

Deno.test('nameIssue() refuses each forbidden character : < > " / \\ | ? * !', () => {
  for (const c of [":", "<", ">", '"', "/", "\\", "|", "?", "*", "!"]) {
    assert.equal(nameIssue("name", `TS ${c} 1`)?.key, "validation.forbiddenChars", c);
  }
  assert.equal(nameIssue("name", "TS Mühlebach-1 (Süd)"), null);
});

Deno.test("numberIssue() checks required, numbers, ranges and two decimals", () => {
  const field = { name: "minimumPowerFactor", min: 0.7, max: 1, unit: "" };
  assert.equal(numberIssue("f", 0.85, field), null);
  assert.equal(numberIssue("f", 1, field), null);
  assert.equal(numberIssue("f", undefined, field)?.key, "validation.required");
  assert.equal(numberIssue("f", "0.8", field)?.key, "validation.onlyNumbers");
  assert.equal(numberIssue("f", 0.69, field)?.key, "validation.range");
  assert.equal(numberIssue("f", 0.855, field)?.key, "validation.range");
  const integer = { name: "boilersInSeries", min: 1, max: 40, unit: "", integer: true };
  assert.equal(numberIssue("f", 2.5, integer)?.key, "validation.integerOnly");
  assert.equal(numberIssue("f", 41, integer)?.key, "validation.range");
});

Deno.test("FEEDER_FIELDS assigns every range of spec 5 once", () => {
  const ranges = Object.values(FEEDER_FIELDS).flat().map((f) => `${f.min}-${f.max}`);
  for (
    const r of ["0-10", "0-20", "0.7-1", "1-200", "1-3000", "100-500", "80-100", "1-40", "0.85-46"]
  ) {
    assert.ok(ranges.includes(r), r);
  }
});

Deno.test("feederIssues() requires the type fields and a known vector group", () => {
  const issues = feederIssues("", {
    name: "Transformer",
    type: "TRANSFORMER",
    in_out: "IN",
    nominal_current_a: 900,
    parameters: { vectorGroup: "Dd0" },
  }).map((i) => `${i.path}:${i.key}`);
  assert.deepEqual(issues, [
    "parameters.impedanceVoltage:validation.required",
    "parameters.lvOperatingTap:validation.required",
    "parameters.mvOperatingTap:validation.required",
    "parameters.nominalMvVoltage:validation.required",
    "parameters.nominalPower:validation.required",
    "parameters.vectorGroup:validation.required",
    "parameters.mvVoltageEstimation:validation.required",
  ]);
  assert.deepEqual(VECTOR_GROUPS, ["Dy1", "Dy5", "Dy11", "Yy0", "Yz5", "Yz11"]);
});

Deno.test("feederIssues() checks battery, PV, boiler, in/out and the meshed rule", () => {
  const keys = (feeder: Record<string, unknown>) =>
    feederIssues("", { name: "Feeder", in_out: "IN", nominal_current_a: 63, ...feeder })
      .map((i) => `${i.path}:${i.key}`);
  assert.deepEqual(
    keys({ type: "BATTERY", parameters: { minSoc: 5, maxSoc: 95, nominalEnergySize: 50 } }),
    [],
  );
  assert.deepEqual(
    keys({ type: "BATTERY", parameters: { minSoc: 15, maxSoc: 95, nominalEnergySize: 50 } }),
    [
      "parameters.minSoc:validation.range",
    ],
  );
  assert.deepEqual(keys({ type: "PV_INVERTER", parameters: { minimumPowerFactor: 0.6 } }), [
    "parameters.minimumPowerFactor:validation.range",
  ]);
  assert.deepEqual(keys({ type: "BOILER", parameters: { boilersInSeries: 3 } }), []);
  assert.deepEqual(keys({ type: "EVSE", in_out: "BOTH", parameters: {} }), [
    "in_out:validation.required",
  ]);
  assert.deepEqual(keys({ type: "LV_LINE", in_out: "OUT", parameters: { meshed: true } }), [
    "in_out:validation.meshedFeederAsInput",
  ]);
  assert.deepEqual(keys({ type: "LV_LINE", in_out: "IN", parameters: { meshed: true } }), []);
});

Deno.test("hasThreePhaseMapping() needs L1, L2 and L3", () => {
  assert.ok(hasThreePhaseMapping(["L1", "L2", "L3", "N"]));
  assert.ok(hasThreePhaseMapping(["L3", "L1", "L2"]));
  assert.ok(!hasThreePhaseMapping(["L1", "L2", "N"]));
  assert.ok(!hasThreePhaseMapping([]));
});
