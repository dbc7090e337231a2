import assert from "node:assert/strict";
import { draftOf, EMPTY_SCALE, readScale } from "./io-scale.ts";

Deno.test("readScale() reads a range, and no range when every field is empty", () => {
  assert.deepEqual(readScale({ min: "-20", max: "80", unit: " °C " }), {
    scale: { min: -20, max: 80, unit: "°C" },
    messages: {},
  });
  assert.deepEqual(readScale(EMPTY_SCALE), { scale: null, messages: {} });
  assert.deepEqual(readScale({ min: "0,5", max: "10", unit: "bar" }).scale, {
    min: 0.5,
    max: 10,
    unit: "bar",
  });
});

Deno.test("readScale() names what the server would refuse, field by field", () => {
  const keys = (draft: Parameters<typeof readScale>[0]) =>
    Object.fromEntries(Object.entries(readScale(draft).messages).map(([f, m]) => [f, m!.key]));
  assert.deepEqual(keys({ min: "", max: "80", unit: "°C" }), { min: "validation.required" });
  assert.deepEqual(keys({ min: "abc", max: "80", unit: "°C" }), { min: "validation.onlyNumbers" });
  assert.deepEqual(keys({ min: "80", max: "-20", unit: "°C" }), { max: "validation.scaleOrder" });
  assert.deepEqual(keys({ min: "0", max: "1", unit: "" }), { unit: "validation.required" });
});

Deno.test("draftOf() fills the form from a stored range", () => {
  assert.deepEqual(draftOf({ min: -20, max: 80, unit: "°C" }), {
    min: "-20",
    max: "80",
    unit: "°C",
  });
  assert.deepEqual(draftOf(null), EMPTY_SCALE);
});
