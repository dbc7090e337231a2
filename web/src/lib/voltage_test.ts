import assert from "node:assert/strict";
import { carriedVoltage, ensureVoltage, voltageOf, withVoltage } from "./voltage.ts";

Deno.test("ensureVoltage() adds voltage=lv when the parameter is missing", () => {
  assert.deepEqual(ensureVoltage({}), { search: { voltage: "lv" }, changed: true });
});

Deno.test("ensureVoltage() replaces an invalid value with lv and keeps other parameters", () => {
  assert.deepEqual(ensureVoltage({ voltage: "hv", node: "12" }), {
    search: { voltage: "lv", node: "12" },
    changed: true,
  });
  assert.equal(ensureVoltage({ voltage: "LV" }).changed, true);
  assert.equal(ensureVoltage({ voltage: 1 }).changed, true);
});

Deno.test("ensureVoltage() leaves a valid lv or mv unchanged", () => {
  assert.deepEqual(ensureVoltage({ voltage: "mv", node: "3" }), {
    search: { voltage: "mv", node: "3" },
    changed: false,
  });
  assert.equal(ensureVoltage({ voltage: "lv" }).changed, false);
});

Deno.test("withVoltage() sets the toggled level and keeps the rest of the search", () => {
  assert.deepEqual(withVoltage({ voltage: "lv", node: "7" }, "mv"), { voltage: "mv", node: "7" });
});

Deno.test("voltageOf() reads a valid level and falls back to lv", () => {
  assert.equal(voltageOf({ voltage: "mv" }), "mv");
  assert.equal(voltageOf({ voltage: "xx" }), "lv");
  assert.equal(voltageOf({}), "lv");
});

Deno.test("carriedVoltage() keeps the current level for links between voltage pages", () => {
  const search: { voltage?: unknown; other: number } = { voltage: "mv", other: 1 };
  assert.deepEqual(carriedVoltage(search), { voltage: "mv" });
  assert.deepEqual(carriedVoltage({ voltage: "bad" }), {});
});
