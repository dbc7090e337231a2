import assert from "node:assert/strict";
import {
  localMidnight,
  nextRunAfter,
  periodBefore,
  periodOfRun,
  RUN_DELAY_MS,
} from "./schedule_time.ts";

const at = (s: string) => Date.parse(s);
const iso = (ms: number) => new Date(ms).toISOString();
const ZH = "Europe/Zurich";

Deno.test("localMidnight() is the first instant of a local date, across daylight saving", () => {
  assert.equal(iso(localMidnight({ y: 2026, m: 2, d: 28 }, ZH)), "2026-03-27T23:00:00.000Z");
  // 29 March 2026: clocks go forward at 02:00; midnight is still +01:00, the 30th +02:00.
  assert.equal(iso(localMidnight({ y: 2026, m: 2, d: 29 }, ZH)), "2026-03-28T23:00:00.000Z");
  assert.equal(iso(localMidnight({ y: 2026, m: 2, d: 30 }, ZH)), "2026-03-29T22:00:00.000Z");
  assert.equal(iso(localMidnight({ y: 2026, m: 0, d: 1 }, "UTC")), "2026-01-01T00:00:00.000Z");
  assert.equal(
    iso(localMidnight({ y: 2026, m: 0, d: 1 }, "America/New_York")),
    "2026-01-01T05:00:00.000Z",
  );
});

Deno.test("a daily run exports the previous local day, 23 hours on the day clocks go forward", () => {
  const run = nextRunAfter("DAILY", at("2026-03-29T10:00:00Z"), ZH);
  assert.equal(iso(run), new Date(at("2026-03-29T22:00:00Z") + RUN_DELAY_MS).toISOString());
  const period = periodOfRun("DAILY", run, ZH);
  assert.equal(iso(period.from), "2026-03-28T23:00:00.000Z");
  assert.equal(iso(period.to), "2026-03-29T22:00:00.000Z");
  assert.equal(period.to - period.from, 23 * 3_600_000);
  // The run after it exports the next day: no day twice, none skipped.
  const next = nextRunAfter("DAILY", run - RUN_DELAY_MS, ZH);
  const second = periodOfRun("DAILY", next, ZH);
  assert.equal(second.from, period.to);
  assert.equal(second.to - second.from, 24 * 3_600_000);
});

Deno.test("a weekly run exports Monday to Monday; a monthly one the calendar month", () => {
  // Wednesday 25 March 2026: the next week ends on Monday 30 March, local midnight.
  const weekly = nextRunAfter("WEEKLY", at("2026-03-25T12:00:00Z"), ZH);
  assert.equal(iso(weekly - RUN_DELAY_MS), "2026-03-29T22:00:00.000Z");
  const week = periodOfRun("WEEKLY", weekly, ZH);
  assert.equal(iso(week.from), "2026-03-22T23:00:00.000Z");
  assert.equal(new Date(week.from + 3_600_000).getUTCDay(), 1, "a Monday");
  const monthly = nextRunAfter("MONTHLY", at("2026-03-25T12:00:00Z"), ZH);
  assert.equal(iso(monthly - RUN_DELAY_MS), "2026-03-31T22:00:00.000Z");
  const month = periodOfRun("MONTHLY", monthly, ZH);
  assert.equal(iso(month.from), "2026-02-28T23:00:00.000Z");
  assert.equal(iso(month.to), "2026-03-31T22:00:00.000Z");
  // December rolls over into January of the next year.
  const december = periodOfRun(
    "MONTHLY",
    nextRunAfter("MONTHLY", at("2026-12-10T00:00:00Z"), "UTC"),
    "UTC",
  );
  assert.deepEqual([iso(december.from), iso(december.to)], [
    "2026-12-01T00:00:00.000Z",
    "2027-01-01T00:00:00.000Z",
  ]);
});

Deno.test("periodBefore() of a period's end is the period itself; an unknown zone reads as UTC", () => {
  const end = at("2026-06-01T00:00:00Z");
  assert.deepEqual(periodBefore("DAILY", end, "UTC"), { from: end - 86_400_000, to: end });
  assert.deepEqual(periodBefore("DAILY", end, "Not/AZone"), { from: end - 86_400_000, to: end });
});
