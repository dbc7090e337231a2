import assert from "node:assert/strict";
import {
  customMessageRule,
  feederMappingRule,
  ioModuleMessages,
  phaseEnabled,
  setPhase,
} from "./cells-rules.ts";

const full = { L1: 1, L2: 2, L3: 3, N: 4 };
const none = { L1: null, L2: null, L3: null, N: null };

Deno.test("unmapping a phase unmaps every following phase", () => {
  assert.deepEqual(setPhase(full, "L2", null), { L1: 1, L2: null, L3: null, N: null });
  assert.deepEqual(setPhase(full, "L1", null), none);
  assert.deepEqual(setPhase(full, "N", null), { L1: 1, L2: 2, L3: 3, N: null });
});

Deno.test("a probe used by another phase moves, and that phase's followers are unmapped", () => {
  assert.deepEqual(setPhase(full, "L1", 3), { L1: 3, L2: 2, L3: null, N: null });
});

Deno.test("a phase is enabled once the phases before it are mapped", () => {
  assert.equal(phaseEnabled(none, "L1"), true);
  assert.equal(phaseEnabled(none, "L2"), false);
  assert.equal(phaseEnabled({ ...none, L1: 1 }, "L2"), true);
});

Deno.test("feeder rules: neutral only (105), MV estimation needs L1-L3 (111)", () => {
  assert.equal(feederMappingRule({ ...none, N: 4 }, false)?.key, "mapping.neutralOnlyUnsupported");
  assert.equal(feederMappingRule({ ...none, L1: 1 }, true)?.key, "mapping.threePhasesRequired");
  assert.equal(feederMappingRule(full, true), null);
});

Deno.test("custom message and module form rules use the server's message keys", () => {
  assert.equal(customMessageRule("Key at depot, box 4"), null);
  assert.equal(customMessageRule("Why?")?.key, "validation.forbiddenChars");
  assert.equal(customMessageRule("x".repeat(121))?.key, "validation.maxChars");
  assert.deepEqual(ioModuleMessages({ size: null, resolution: null }), {
    size: { key: "validation.selectModuleSize" },
    resolution: { key: "validation.setModuleResolution" },
  });
  assert.deepEqual(ioModuleMessages({ size: 2, resolution: 1.5 }), {
    resolution: { key: "validation.resolutionRange" },
  });
});
