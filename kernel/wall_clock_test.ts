import assert from "node:assert/strict";
import { wallClock, zoneOffset } from "./wall_clock.ts";

Deno.test("wallClock() reads Zurich's summer and winter time and the ISO weekday", () => {
  // 2026-07-01 10:00 UTC is a Wednesday, 12:00 in Zurich (UTC+2).
  assert.deepEqual(wallClock(Date.UTC(2026, 6, 1, 10), "Europe/Zurich"), {
    year: 2026,
    month: 7,
    day: 1,
    hour: 12,
    minute: 0,
    second: 0,
    weekday: 3,
  });
  // 2026-12-31 23:30:15 UTC is already Friday 1 January 2027 00:30:15 in Zurich (UTC+1).
  const w = wallClock(Date.UTC(2026, 11, 31, 23, 30, 15), "Europe/Zurich");
  assert.deepEqual([w.year, w.month, w.day, w.hour, w.minute, w.second, w.weekday], [
    2027,
    1,
    1,
    0,
    30,
    15,
    5,
  ]);
});

Deno.test("zoneOffset() follows daylight saving; an unknown zone reads as UTC", () => {
  assert.deepEqual(zoneOffset(Date.UTC(2026, 0, 15), "Europe/Kyiv"), 2 * 3_600_000);
  assert.deepEqual(zoneOffset(Date.UTC(2026, 6, 15), "Europe/Kyiv"), 3 * 3_600_000);
  assert.deepEqual(zoneOffset(Date.UTC(2026, 6, 15), "America/New_York"), -4 * 3_600_000);
  // The spring change in Zurich, 2026-03-29 01:00 UTC: one second before and at it.
  assert.deepEqual(zoneOffset(Date.UTC(2026, 2, 29, 0, 59, 59), "Europe/Zurich"), 3_600_000);
  assert.deepEqual(zoneOffset(Date.UTC(2026, 2, 29, 1), "Europe/Zurich"), 2 * 3_600_000);
  assert.deepEqual(zoneOffset(Date.UTC(2026, 6, 15, 12, 0, 0, 500), "Not/AZone"), 0);
});
