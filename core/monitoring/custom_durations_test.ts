import assert from "node:assert/strict";
import {
  AUTOMATIC_DURATIONS_MIN,
  isAllowedDuration,
  MANUAL_DURATIONS_MIN,
} from "./custom_durations.ts";

Deno.test("isAllowedDuration() accepts manual 1-5, 10-60 step 10 and 120-1440 step 60 and refuses the gaps", () => {
  for (const ok of [1, 2, 3, 4, 5, 10, 20, 30, 40, 50, 60, 120, 180, 720, 1380, 1440]) {
    assert.ok(isAllowedDuration("MANUAL", ok), `${ok} min`);
  }
  for (const refused of [0, -1, 6, 9, 15, 61, 70, 110, 119, 121, 150, 1439, 1500, 2.5, NaN]) {
    assert.ok(!isAllowedDuration("MANUAL", refused), `${refused} min`);
  }
});

Deno.test("isAllowedDuration() accepts automatic 1-5 and 10-60 step 10 only", () => {
  for (const ok of [1, 5, 10, 60]) assert.ok(isAllowedDuration("AUTOMATIC", ok), `${ok} min`);
  for (const refused of [0, 6, 70, 120, 1440]) {
    assert.ok(!isAllowedDuration("AUTOMATIC", refused), `${refused} min`);
  }
});

Deno.test("MANUAL_DURATIONS_MIN lists 5 + 6 + 23 durations in ascending order", () => {
  assert.equal(AUTOMATIC_DURATIONS_MIN.length, 11);
  assert.equal(MANUAL_DURATIONS_MIN.length, 34);
  assert.deepEqual([...MANUAL_DURATIONS_MIN].sort((a, b) => a - b), [...MANUAL_DURATIONS_MIN]);
  assert.equal(MANUAL_DURATIONS_MIN.at(-1), 1440);
});
