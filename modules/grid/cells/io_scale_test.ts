import assert from "node:assert/strict";
import { ioModuleInput, ioModuleScaleInput, ioScaleInput } from "./contract.ts";

const keys = (
  result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } },
) => result.success ? [] : result.error!.issues.map((i) => `${i.path.join(".")}:${i.message}`);

Deno.test("ioScaleInput takes a range from low to high with a short unit", () => {
  assert.deepEqual(ioScaleInput.parse({ min: -20, max: 80, unit: " °C " }), {
    min: -20,
    max: 80,
    unit: "°C",
  });
  assert.deepEqual(keys(ioScaleInput.safeParse({ min: 80, max: -20, unit: "°C" })), [
    "max:validation.scaleOrder",
  ]);
  assert.deepEqual(keys(ioScaleInput.safeParse({ min: 0, max: 1.234, unit: "bar" })), [
    "max:validation.range",
  ]);
  assert.deepEqual(keys(ioScaleInput.safeParse({ min: 0, max: 10, unit: " " })), [
    "unit:validation.required",
  ]);
  assert.deepEqual(keys(ioScaleInput.safeParse({ min: 0, max: 10, unit: "m³/h per pump!" })), [
    "unit:validation.scaleUnit",
  ]);
  assert.ok(ioModuleScaleInput.safeParse({ scale: null }).success, "null removes the range");
});

Deno.test("ioModuleInput gives a measuring range to analog inputs only", () => {
  const module = {
    name: "Tank level",
    module_type: "ANALOG_INPUT",
    system_type: "4_20MA",
    size: 2,
    resolution: 0.01,
    scale: { min: 0, max: 100, unit: "%" },
  };
  assert.ok(ioModuleInput.safeParse(module).success);
  assert.deepEqual(
    keys(
      ioModuleInput.safeParse({ ...module, module_type: "DIGITAL_INPUT", system_type: "24V_DC" }),
    ),
    ["scale:validation.scaleAnalogOnly"],
  );
});
