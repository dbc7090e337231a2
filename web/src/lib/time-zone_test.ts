import assert from "node:assert/strict";
import { formatGmtOffset, gmtOffsetLabel, timeZoneOffsetMinutes } from "./time-zone.ts";

const winter = new Date("2025-01-15T12:00:00Z");
const summer = new Date("2025-07-15T12:00:00Z");

Deno.test("gmtOffsetLabel() gives GMT+01:00 for Europe/Zurich in winter and GMT+02:00 in summer", () => {
  assert.equal(gmtOffsetLabel("Europe/Zurich", winter), "GMT+01:00");
  assert.equal(gmtOffsetLabel("Europe/Zurich", summer), "GMT+02:00");
});

Deno.test("gmtOffsetLabel() keeps half-hour offsets and negative signs", () => {
  assert.equal(gmtOffsetLabel("Asia/Kolkata", winter), "GMT+05:30");
  assert.equal(gmtOffsetLabel("America/St_Johns", winter), "GMT-03:30");
  assert.equal(gmtOffsetLabel("America/New_York", summer), "GMT-04:00");
});

Deno.test("gmtOffsetLabel() gives GMT+00:00 for UTC and null for an unknown zone", () => {
  assert.equal(gmtOffsetLabel("UTC", summer), "GMT+00:00");
  assert.equal(gmtOffsetLabel("Mars/Olympus_Mons", summer), null);
  assert.equal(timeZoneOffsetMinutes("", summer), null);
});

Deno.test("formatGmtOffset() pads hours and minutes", () => {
  assert.equal(formatGmtOffset(0), "GMT+00:00");
  assert.equal(formatGmtOffset(345), "GMT+05:45");
  assert.equal(formatGmtOffset(-600), "GMT-10:00");
});
