import assert from "node:assert/strict";
import { fromWallClock, resolvePeriod, toWallClock, validatePeriod, zoomPeriod } from "./period.ts";

const MIN = 60_000;
const DAY = 86_400_000;
const now = Date.parse("2026-11-22T17:20:42.123Z");

Deno.test("resolvePeriod() ends a quick range at the current minute", () => {
  const end = Date.parse("2026-11-22T17:20:00Z");
  assert.deepEqual(resolvePeriod({ kind: "quick", range: "1h" }, now), {
    from: end - 60 * MIN,
    to: end,
  });
  assert.deepEqual(resolvePeriod({ kind: "quick", range: "24h" }, now).from, end - DAY);
  assert.deepEqual(resolvePeriod({ kind: "quick", range: "7d" }, now).from, end - 7 * DAY);
  assert.deepEqual(resolvePeriod({ kind: "quick", range: "30d" }, now).from, end - 30 * DAY);
  assert.deepEqual(resolvePeriod({ kind: "quick", range: "1y" }, now).from, end - 365 * DAY);
});

Deno.test("resolvePeriod() keeps a custom period as it is", () => {
  assert.deepEqual(resolvePeriod({ kind: "custom", from: 1, to: 2 }, now), { from: 1, to: 2 });
});

Deno.test("validatePeriod() mirrors codes 401 (order, unparsable), 402 (> 366 d), 403 (< 10 min)", () => {
  assert.equal(validatePeriod({ from: now, to: now }), "data.periodIncorrect");
  assert.equal(validatePeriod({ from: now, to: now - MIN }), "data.periodIncorrect");
  assert.equal(validatePeriod({ from: Number.NaN, to: now }), "data.periodIncorrect");
  assert.equal(validatePeriod({ from: now - 366 * DAY - 1, to: now }), "data.periodTooLong");
  assert.equal(validatePeriod({ from: now - 366 * DAY, to: now }), null);
  assert.equal(validatePeriod({ from: now - 10 * MIN + 1, to: now }), "data.periodTooShort");
  assert.equal(validatePeriod({ from: now - 10 * MIN, to: now }), null);
  for (const range of ["1h", "24h", "7d", "30d", "1y"] as const) {
    assert.equal(validatePeriod(resolvePeriod({ kind: "quick", range }, now)), null, range);
  }
});

Deno.test("zoomPeriod() keeps a long selection and widens a short one to 10 minutes", () => {
  assert.deepEqual(zoomPeriod(now, now - 30 * MIN), {
    from: Math.round((now - 30 * MIN) / 1000) * 1000,
    to: Math.round(now / 1000) * 1000,
  });
  const short = zoomPeriod(now, now + 2 * MIN);
  assert.equal(short.to - short.from, 10 * MIN);
  assert.ok(short.from < now && short.to > now + 2 * MIN);
});

Deno.test("toWallClock() shows an instant on the customer's clock, not the browser's", () => {
  assert.equal(
    toWallClock(Date.parse("2026-01-15T12:00:00Z"), "Europe/Zurich"),
    "2026-01-15T13:00",
  );
  assert.equal(
    toWallClock(Date.parse("2026-07-15T12:00:00Z"), "Europe/Zurich"),
    "2026-07-15T14:00",
  );
  assert.equal(
    toWallClock(Date.parse("2026-07-15T12:00:00Z"), "America/New_York"),
    "2026-07-15T08:00",
  );
});

Deno.test("fromWallClock() reads a customer's wall clock back to the instant", () => {
  assert.equal(
    fromWallClock("2026-01-15T13:00", "Europe/Zurich"),
    Date.parse("2026-01-15T12:00:00Z"),
  );
  assert.equal(
    fromWallClock("2026-07-15T14:00", "Europe/Zurich"),
    Date.parse("2026-07-15T12:00:00Z"),
  );
  assert.equal(
    fromWallClock("2026-07-15T05:30", "Asia/Kolkata"),
    Date.parse("2026-07-15T00:00:00Z"),
  );
  // Around the spring change (Zurich 2026-03-29 02:00 -> 03:00).
  assert.equal(
    fromWallClock("2026-03-29T01:30", "Europe/Zurich"),
    Date.parse("2026-03-29T00:30:00Z"),
  );
  assert.equal(
    fromWallClock("2026-03-29T03:30", "Europe/Zurich"),
    Date.parse("2026-03-29T01:30:00Z"),
  );
  for (const wall of ["2026-10-25T12:00", "2026-12-31T23:59"]) {
    assert.equal(toWallClock(fromWallClock(wall, "Europe/Zurich"), "Europe/Zurich"), wall);
  }
});

Deno.test("fromWallClock() gives NaN for text that is not a date and time", () => {
  assert.ok(Number.isNaN(fromWallClock("", "UTC")));
  assert.ok(Number.isNaN(fromWallClock("2026-02-30T10:00", "UTC")));
  assert.ok(Number.isNaN(fromWallClock("yesterday", "UTC")));
});
