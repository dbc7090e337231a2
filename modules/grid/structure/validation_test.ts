import assert from "node:assert/strict";
import type { z } from "zod";
import { fieldIssues } from "../../../kernel/mod.ts";
import type { FieldIssue } from "../../../kernel/mod.ts";
import { feederInput, gridName, numeric, stationGroupInput } from "./contract.ts";
import { ioModuleInput } from "../cells/contract.ts";
import {
  FEEDER_FIELDS,
  hasThreePhaseMapping,
  NEW_NODE_NAME,
  type NumericField,
  VECTOR_GROUPS,
} from "./validation.ts";

/** The field errors a schema gives for `input` (none when valid), as the routes answer them. */
function issuesOf(schema: z.ZodType, input: unknown): FieldIssue[] {
  const result = schema.safeParse(input);
  return result.success ? [] : fieldIssues(result.error.issues, input);
}

/** The first field error of a name (path `name`), or null when it is valid. */
function nameIssue(path: string, value: unknown, limits?: { min: number; max: number }) {
  const [issue] = issuesOf(gridName(limits), value);
  return issue ? { ...issue, path } : null;
}

/** The first field error of a number, or null when it is valid. */
function numberIssue(path: string, value: unknown, field: NumericField) {
  const [issue] = issuesOf(numeric(field), value);
  return issue ? { ...issue, path } : null;
}

/** The field errors of a feeder body. */
function feederIssues(_prefix: string, feeder: unknown) {
  return issuesOf(feederInput, feeder);
}

Deno.test("nameIssue() gives the spec's messages for grid item names (3-60)", () => {
  assert.equal(nameIssue("name", "Substation South"), null);
  assert.deepEqual(nameIssue("name", ""), {
    path: "name",
    key: "validation.pleaseInputName",
    params: {},
  });
  assert.deepEqual(nameIssue("name", "  "), {
    path: "name",
    key: "validation.pleaseInputName",
    params: {},
  });
  assert.deepEqual(nameIssue("name", 7)?.key, "validation.pleaseInputName");
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

Deno.test("feederInput keeps only the type's parameters and trims the name", () => {
  const parsed = feederInput.parse({
    name: "  PV roof ",
    type: "PV_INVERTER",
    in_out: "IN",
    nominal_current_a: 40,
    parameters: { minimumPowerFactor: 0.9, meshed: true, vectorGroup: "Dy5" },
  });
  assert.equal(parsed.name, "PV roof");
  assert.deepEqual(parsed.parameters, { minimumPowerFactor: 0.9 });
});

Deno.test("stationGroupInput takes optional coordinates within range ('' and null: none)", () => {
  assert.deepEqual(stationGroupInput.parse({ name: "Station", latitude: "", longitude: null }), {
    name: "Station",
    latitude: null,
    longitude: null,
  });
  assert.deepEqual(
    issuesOf(stationGroupInput, { name: "Station", latitude: 91, longitude: "x" }),
    [
      { path: "latitude", key: "validation.range", params: { min: -90, max: 90 } },
      { path: "longitude", key: "validation.onlyNumbers", params: {} },
    ],
  );
});

Deno.test("hasThreePhaseMapping() needs L1, L2 and L3", () => {
  assert.ok(hasThreePhaseMapping(["L1", "L2", "L3", "N"]));
  assert.ok(hasThreePhaseMapping(["L3", "L1", "L2"]));
  assert.ok(!hasThreePhaseMapping(["L1", "L2", "N"]));
  assert.ok(!hasThreePhaseMapping([]));
});

Deno.test("feeder and I/O module bodies that are not objects are validation errors, not crashes", () => {
  for (const body of [null, [], "text", 7]) {
    assert.equal(feederInput.safeParse(body).success, false, JSON.stringify(body));
    assert.equal(ioModuleInput.safeParse(body).success, false, JSON.stringify(body));
  }
});
