import assert from "node:assert/strict";
import { feederMessages, nameMessage, NEW_NODE_NAME, numberMessage, parseNumber } from "./rules.ts";

Deno.test("nameMessage() mirrors the server's name rules", () => {
  assert.equal(nameMessage("TS Alpha"), null);
  assert.deepEqual(nameMessage("ab"), { key: "validation.nameMin", params: { count: 3 } });
  assert.deepEqual(nameMessage("x".repeat(21), NEW_NODE_NAME), {
    key: "validation.nameMax",
    params: { count: 20 },
  });
  assert.deepEqual(nameMessage("TS ?"), { key: "validation.forbiddenChars" });
  assert.deepEqual(nameMessage("  "), { key: "validation.pleaseInputName" });
});

Deno.test("numberMessage() checks ranges with two decimals", () => {
  const pf = { name: "minimumPowerFactor", min: 0.7, max: 1, unit: "" };
  assert.equal(numberMessage(0.95, pf), null);
  assert.equal(numberMessage(0.955, pf)?.key, "validation.range");
  assert.equal(numberMessage(null, pf)?.key, "validation.required");
  assert.equal(numberMessage(parseNumber("abc"), pf)?.key, "validation.onlyNumbers");
  assert.equal(parseNumber("0,9"), 0.9);
});

Deno.test("feederMessages() flags a meshed output line and missing transformer fields", () => {
  assert.deepEqual(
    Object.keys(feederMessages({
      name: "Line",
      type: "LV_LINE",
      in_out: "OUT",
      nominal_current_a: 250,
      parameters: { meshed: true },
    })),
    ["in_out"],
  );
  const transformer = feederMessages({
    name: "Transformer",
    type: "TRANSFORMER",
    in_out: "IN",
    nominal_current_a: 900,
    parameters: { impedanceVoltage: 4 },
  });
  assert.deepEqual(Object.keys(transformer), [
    "lvOperatingTap",
    "mvOperatingTap",
    "nominalMvVoltage",
    "nominalPower",
    "vectorGroup",
  ]);
});
