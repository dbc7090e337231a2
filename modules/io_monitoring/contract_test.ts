import assert from "node:assert/strict";
import { scaleSignal } from "./contract.ts";

Deno.test("scaleSignal() maps 4-20 mA onto the measuring range, 2 decimals", () => {
  const temperature = { min: -20, max: 80, unit: "°C" };
  assert.equal(scaleSignal(4, "4_20MA", temperature), -20);
  assert.equal(scaleSignal(20, "4_20MA", temperature), 80);
  assert.equal(scaleSignal(12, "4_20MA", temperature), 30);
  assert.equal(scaleSignal(10.123, "4_20MA", temperature), 18.27);
  assert.equal(scaleSignal(5, "0_10V", { min: 0, max: 16, unit: "bar" }), 8);
});

Deno.test("scaleSignal() gives null without a value, a range or a signal range", () => {
  assert.equal(scaleSignal(null, "4_20MA", { min: 0, max: 1, unit: "x" }), null);
  assert.equal(scaleSignal(12, "4_20MA", null), null);
  assert.equal(scaleSignal(1, "DRY_CONTACT", { min: 0, max: 1, unit: "x" }), null);
});
