import assert from "node:assert/strict";
import { liveRole, PANEL_TONE, SOFT_TONE, TONES } from "./tones.ts";

Deno.test("liveRole() makes warnings and failures alerts and the rest polite status", () => {
  assert.deepEqual(TONES.map(liveRole), ["status", "alert", "alert", "status"]);
});

Deno.test("every tone has its soft and panel classes from the state colours", () => {
  for (const tone of TONES) {
    assert.ok(SOFT_TONE[tone].length > 0 && PANEL_TONE[tone].panel.length > 0, tone);
  }
  assert.match(SOFT_TONE.critical, /state-critical/);
  assert.match(PANEL_TONE.warning.icon, /state-warning/);
});
