import assert from "node:assert/strict";
import { PeriodError } from "./errors.ts";
import { isoWeekOf, isoWeekRange, isoWeeksInYear, validateReportPeriod } from "./period.ts";

const at = (iso: string) => new Date(iso);
const MINUTE = 60_000;
const DAY = 86_400_000;

function assertPeriodError(fn: () => unknown, code: 401 | 402 | 403, message?: RegExp) {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof PeriodError, `expected a PeriodError, got ${error}`);
    assert.equal(error.code, code);
    assert.equal(error.status, 400);
    if (message) assert.match(error.message, message);
    return true;
  });
}

Deno.test("isoWeekRange() runs from Monday 00:00 UTC for 7 days and 1,008 slots", () => {
  const week = isoWeekRange(2026, 3);
  assert.equal(week.from.toISOString(), "2026-01-12T00:00:00.000Z");
  assert.equal(week.to.toISOString(), "2026-01-19T00:00:00.000Z");
  assert.equal(week.slotCount, 1008);
});

Deno.test("isoWeekRange() starts week 1 in the previous December when January 1 is a Thursday", () => {
  assert.equal(isoWeekRange(2026, 1).from.toISOString(), "2025-12-29T00:00:00.000Z");
  assert.equal(isoWeekRange(2021, 1).from.toISOString(), "2021-01-04T00:00:00.000Z");
});

Deno.test("isoWeekRange() gives week 53 of a long year across the new year", () => {
  const week = isoWeekRange(2020, 53);
  assert.equal(week.from.toISOString(), "2020-12-28T00:00:00.000Z");
  assert.equal(week.to.toISOString(), "2021-01-04T00:00:00.000Z");
  assert.equal(isoWeekRange(2026, 53).to.toISOString(), "2027-01-04T00:00:00.000Z");
});

Deno.test("isoWeekRange() refuses week 53 of a 52-week year and week 0 with code 401", () => {
  assertPeriodError(
    () => isoWeekRange(2021, 53),
    401,
    /Invalid ISO week 2021-W53: 2021 has 52 weeks/,
  );
  assertPeriodError(() => isoWeekRange(2021, 0), 401);
  assertPeriodError(() => isoWeekRange(2021.5, 1), 401);
});

Deno.test("isoWeeksInYear() counts 53 weeks for 2015, 2020, 2026 and 52 for 2021-2025", () => {
  const years = [2015, 2020, 2021, 2022, 2023, 2024, 2025, 2026, 2032];
  assert.deepEqual(years.map(isoWeeksInYear), [53, 53, 52, 52, 52, 52, 52, 53, 53]);
});

Deno.test("isoWeekOf() puts early January in the last week of the previous year", () => {
  assert.deepEqual(isoWeekOf(at("2021-01-03T23:59:59.999Z")), { year: 2020, week: 53 });
  assert.deepEqual(isoWeekOf(at("2021-01-04T00:00:00.000Z")), { year: 2021, week: 1 });
  assert.deepEqual(isoWeekOf(at("2023-01-01T12:00:00.000Z")), { year: 2022, week: 52 });
});

Deno.test("isoWeekOf() puts late December in week 1 of the next year", () => {
  assert.deepEqual(isoWeekOf(at("2024-12-30T00:00:00.000Z")), { year: 2025, week: 1 });
  assert.deepEqual(isoWeekOf(at("2024-12-29T23:59:59.999Z")), { year: 2024, week: 52 });
});

Deno.test("isoWeekOf() finds every week of 2019-2032 from its first and last millisecond", () => {
  for (let year = 2019; year <= 2032; year++) {
    for (let week = 1; week <= isoWeeksInYear(year); week++) {
      const range = isoWeekRange(year, week);
      assert.deepEqual(isoWeekOf(range.from), { year, week });
      assert.deepEqual(isoWeekOf(new Date(range.to.getTime() - 1)), { year, week });
    }
  }
});

Deno.test("validateReportPeriod() accepts exactly 10 minutes as one slot", () => {
  const from = at("2026-03-01T10:00:00Z");
  const period = validateReportPeriod(from, new Date(from.getTime() + 10 * MINUTE));
  assert.equal(period.slotCount, 1);
});

Deno.test("validateReportPeriod() refuses a period under 10 minutes with code 403", () => {
  const from = at("2026-03-01T10:00:00Z");
  assertPeriodError(() => validateReportPeriod(from, new Date(from.getTime() + 5 * MINUTE)), 403);
});

Deno.test("validateReportPeriod() accepts exactly 366 days and refuses 10 minutes more with 402", () => {
  const from = at("2024-01-01T00:00:00Z");
  const to = new Date(from.getTime() + 366 * DAY);
  assert.equal(validateReportPeriod(from, to).slotCount, 366 * 144);
  assertPeriodError(
    () => validateReportPeriod(from, new Date(to.getTime() + 10 * MINUTE)),
    402,
    /Report period too long/,
  );
});

Deno.test("validateReportPeriod() refuses an end not after the start with code 401", () => {
  const from = at("2026-03-01T10:00:00Z");
  assertPeriodError(() => validateReportPeriod(from, from), 401, /must be after from/);
  assertPeriodError(() => validateReportPeriod(from, at("2026-02-01T10:00:00Z")), 401);
});

Deno.test("validateReportPeriod() refuses invalid dates and bounds off the 10-minute grid with 401", () => {
  const from = at("2026-03-01T10:00:00Z");
  assertPeriodError(() => validateReportPeriod(at("not a date"), from), 401, /valid dates/);
  assertPeriodError(
    () => validateReportPeriod(at("2026-03-01T10:05:00Z"), at("2026-03-02T10:05:00Z")),
    401,
    /not on the 10-minute UTC grid/,
  );
});

Deno.test("PeriodError answers the catalogue body of its code", () => {
  const error = new PeriodError(402, "Report period too long: 400 days, at most 366");
  assert.deepEqual(error.toBody(), { code: 402, key: "data.periodTooLong", params: {} });
  assert.equal(error.name, "PeriodError");
});
