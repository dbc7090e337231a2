import assert from "node:assert/strict";
import {
  allowed,
  beyondDataLifetime,
  firstRun,
  isoMonday,
  isoWeekLabel,
  lastCompleteWeek,
  nextRun,
  reportNameFor,
  tooFarAhead,
  zonedHour,
} from "./schedule.ts";

const at = (iso: string) => Date.parse(iso);
const iso = (t: number) => new Date(t).toISOString();
const DAY = 86_400_000;

Deno.test("nextRun() is the weekday's hour on the customer's wall clock (Zurich, winter and summer)", () => {
  const monday6 = { weekday: 1, hour: 6, timezone: "Europe/Zurich" };
  // Winter (UTC+1): Monday 2026-01-12 06:00 local = 05:00 UTC.
  assert.equal(iso(nextRun(monday6, at("2026-01-08T12:00:00Z"))), "2026-01-12T05:00:00.000Z");
  // Summer (UTC+2): Monday 2026-07-13 06:00 local = 04:00 UTC.
  assert.equal(iso(nextRun(monday6, at("2026-07-08T12:00:00Z"))), "2026-07-13T04:00:00.000Z");
  // Exactly at a run: that run; one millisecond later: the next week's.
  assert.equal(iso(nextRun(monday6, at("2026-01-12T05:00:00Z"))), "2026-01-12T05:00:00.000Z");
  assert.equal(iso(nextRun(monday6, at("2026-01-12T05:00:00.001Z"))), "2026-01-19T05:00:00.000Z");
  // The weekday is the local one: Monday 00:30 in Zurich is still Sunday in UTC.
  const mondayMidnight = { weekday: 1, hour: 0, timezone: "Europe/Zurich" };
  assert.equal(
    iso(nextRun(mondayMidnight, at("2026-01-10T00:00:00Z"))),
    "2026-01-11T23:00:00.000Z",
  );
});

Deno.test("nextRun() across daylight saving changes: the skipped hour runs at the jump, the doubled hour once", () => {
  // 2026-03-29: Zurich jumps from 02:00 to 03:00 (UTC+1 -> UTC+2). A Sunday 02:00 run happens at
  // the jump (01:00 UTC = 03:00 local), not an hour later and not the next week.
  const sunday2 = { weekday: 7, hour: 2, timezone: "Europe/Zurich" };
  assert.equal(iso(nextRun(sunday2, at("2026-03-27T00:00:00Z"))), "2026-03-29T01:00:00.000Z");
  assert.equal(
    iso(zonedHour(at("2026-03-29T00:00:00Z"), 2, "Europe/Zurich")),
    "2026-03-29T01:00:00.000Z",
  );
  // 2026-10-25: 02:00-03:00 happens twice; the run is at the first 02:00 (00:00 UTC), once.
  const first = nextRun(sunday2, at("2026-10-23T00:00:00Z"));
  assert.equal(iso(first), "2026-10-25T00:00:00.000Z");
  assert.equal(iso(nextRun(sunday2, first + 1)), "2026-11-01T01:00:00.000Z");
  // Consecutive runs over a whole year are 7 days apart give or take the one-hour changes.
  let t = nextRun(sunday2, at("2026-01-01T00:00:00Z"));
  for (let k = 0; k < 60; k++) {
    const next = nextRun(sunday2, t + 1);
    assert.ok(Math.abs(next - t - 7 * DAY) <= 3_600_000, iso(next));
    t = next;
  }
});

Deno.test("nextRun() in other zones: New York and Kyiv", () => {
  const friday18 = { weekday: 5, hour: 18, timezone: "America/New_York" };
  // 2026-03-06 is a Friday before the US change of 03-08 (EST, UTC-5).
  assert.equal(iso(nextRun(friday18, at("2026-03-02T00:00:00Z"))), "2026-03-06T23:00:00.000Z");
  // 2026-03-13 after it (EDT, UTC-4).
  assert.equal(iso(nextRun(friday18, at("2026-03-07T00:00:00Z"))), "2026-03-13T22:00:00.000Z");
  const kyiv = { weekday: 3, hour: 9, timezone: "Europe/Kyiv" };
  assert.equal(iso(nextRun(kyiv, at("2026-12-01T00:00:00Z"))), "2026-12-02T07:00:00.000Z");
});

Deno.test("firstRun() starts on the start day in the customer's zone", () => {
  const monday6 = { weekday: 1, hour: 6, timezone: "Europe/Zurich" };
  // 2026-11-02 is a Monday: the first run is that day at 06:00 local.
  assert.equal(iso(firstRun(monday6, "2026-11-02")), "2026-11-02T05:00:00.000Z");
  // Starting on a Tuesday: the next Monday.
  assert.equal(iso(firstRun(monday6, "2026-11-03")), "2026-11-09T05:00:00.000Z");
});

Deno.test("a run analyses the last complete ISO week (Monday 00:00 UTC)", () => {
  const week = lastCompleteWeek(at("2026-11-30T05:00:00Z"));
  assert.equal(iso(week.from), "2026-11-23T00:00:00.000Z");
  assert.equal(iso(week.to), "2026-11-30T00:00:00.000Z");
  // Sunday 23:00 UTC: that week is not complete yet.
  assert.equal(iso(lastCompleteWeek(at("2026-11-29T23:00:00Z")).from), "2026-11-16T00:00:00.000Z");
  assert.equal(iso(isoMonday(at("2026-11-29T23:00:00Z"))), "2026-11-23T00:00:00.000Z");
  assert.equal(isoWeekLabel(at("2026-11-23T00:00:00Z")), "2026-W48");
  assert.equal(isoWeekLabel(at("2025-12-29T00:00:00Z")), "2026-W01");
  assert.equal(isoWeekLabel(at("2027-01-04T00:00:00Z")), "2027-W01");
});

Deno.test("code 520: the first analysed week must start within the data lifetime; 513 for far starts", () => {
  const now = at("2026-11-28T12:00:00Z");
  // First run Monday 2025-11-03 05:00: it analyses the week from 2025-10-27, 397 days back.
  const run = at("2025-11-03T05:00:00Z");
  assert.equal(beyondDataLifetime(run, now, 400), false);
  assert.equal(beyondDataLifetime(run, now, 397), true);
  assert.equal(beyondDataLifetime(run, now, 398), false);
  assert.equal(tooFarAhead(now + 30 * DAY, now, 30), false);
  assert.equal(tooFarAhead(now + 30 * DAY + 1, now, 30), true);
});

Deno.test("code 503: the actions each status allows", () => {
  assert.equal(allowed("pause", "ACTIVE"), true);
  assert.equal(allowed("pause", "PAUSED"), false);
  assert.equal(allowed("resume", "PAUSED"), true);
  assert.equal(allowed("resume", "ACTIVE"), false);
  assert.equal(allowed("edit", "ACTIVE"), false);
  assert.equal(allowed("edit", "PAUSED"), true);
  assert.equal(allowed("delete", "ACTIVE"), false);
  assert.equal(allowed("delete", "PAUSED"), true);
  assert.equal(allowed("run", "ACTIVE"), true);
  assert.equal(allowed("run", "PAUSED"), true);
});

Deno.test("reportNameFor() fits 60 characters and never repeats a name in use", () => {
  const taken = new Set<string>();
  const a = reportNameFor("Weekly", "2026-W48", "TS Seeblick", taken);
  assert.equal(a, "Weekly 2026-W48 TS Seeblick");
  taken.add(a.toLowerCase());
  assert.equal(
    reportNameFor("weekly", "2026-W48", "TS Seeblick", taken),
    "weekly 2026-W48 TS Seeblick (2)",
  );
  const long = reportNameFor("A".repeat(60), "2026-W48", "Node", new Set());
  assert.equal(long.length, 60);
  const longTaken = new Set([long.toLowerCase()]);
  const second = reportNameFor("A".repeat(60), "2026-W48", "Node", longTaken);
  assert.equal(second.length, 60);
  assert.ok(second.endsWith(" (2)"));
});
