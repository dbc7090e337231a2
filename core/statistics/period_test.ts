import assert from "node:assert/strict";
import {
  autoResolution,
  checkPeriod,
  gridTimes,
  parseInstant,
  RESOLUTIONS,
  slotGrid,
} from "./period.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const FROM = Date.parse("2026-03-01T00:00:00Z");
const iso = (ms: number) => new Date(ms).toISOString();

Deno.test("autoResolution() picks the coarsest readable level at each boundary", () => {
  assert.equal(autoResolution(10 * MINUTE), "20s");
  assert.equal(autoResolution(6 * HOUR), "20s");
  assert.equal(autoResolution(6 * HOUR + 1), "10min");
  assert.equal(autoResolution(7 * DAY), "10min");
  assert.equal(autoResolution(7 * DAY + 1), "1h");
  assert.equal(autoResolution(92 * DAY), "1h");
  assert.equal(autoResolution(92 * DAY + 1), "1d");
  assert.equal(autoResolution(366 * DAY), "1d");
});

Deno.test("checkPeriod() accepts 10 minutes to 366 days and names the rule a period breaks", () => {
  assert.deepEqual(checkPeriod(iso(FROM), iso(FROM + 10 * MINUTE)), {
    from: FROM,
    to: FROM + 10 * MINUTE,
  });
  assert.deepEqual(checkPeriod(iso(FROM), iso(FROM + 10 * MINUTE - 1)), {
    error: "data.periodTooShort",
  });
  assert.deepEqual(checkPeriod(iso(FROM), iso(FROM + 366 * DAY)), {
    from: FROM,
    to: FROM + 366 * DAY,
  });
  assert.deepEqual(checkPeriod(iso(FROM), iso(FROM + 366 * DAY + 1)), {
    error: "data.periodTooLong",
  });
  for (
    const [from, to] of [
      [iso(FROM), iso(FROM)],
      [iso(FROM + DAY), iso(FROM)],
      ["yesterday", iso(FROM)],
      [iso(FROM), ""],
      ["2026-02-30T00:00:00Z", "2026-03-02T00:00:00Z"],
      ["2026-03-01", "2026-03-02"],
      ["2026-03-01T00:00:00", "2026-03-02T00:00:00"],
    ]
  ) {
    assert.deepEqual(checkPeriod(from!, to!), { error: "data.periodIncorrect" }, `${from} ${to}`);
  }
});

Deno.test("parseInstant() takes ISO instants with an offset and refuses dates that do not exist", () => {
  assert.equal(parseInstant("2026-03-01T01:00:00+01:00"), FROM);
  assert.equal(parseInstant("2026-03-01T00:00Z"), FROM);
  assert.equal(parseInstant("2026-03-01T00:00:00.000Z"), FROM);
  assert.equal(parseInstant("2026-02-28T23:00:00-01:00"), FROM);
  assert.ok(Number.isNaN(parseInstant("2026-02-29T00:00:00Z")));
  assert.ok(Number.isNaN(parseInstant("2026-13-01T00:00:00Z")));
  assert.ok(Number.isNaN(parseInstant("1772323200000")));
});

Deno.test("slotGrid() floors the start to the step and covers the period up to its end", () => {
  const grid = slotGrid(FROM + 5 * MINUTE, FROM + HOUR + 1, RESOLUTIONS["10min"].stepMs);
  assert.deepEqual(grid, { start: FROM, stepMs: 10 * MINUTE, count: 7 });
  assert.equal(gridTimes(grid)[6], FROM + HOUR);
  // Daily slots are UTC days, like the daily aggregates.
  const days = slotGrid(FROM + 13 * HOUR, FROM + 3 * DAY, DAY);
  assert.deepEqual(gridTimes(days), [FROM, FROM + DAY, FROM + 2 * DAY]);
  assert.equal(slotGrid(FROM, FROM + 6 * HOUR, 20_000).count, 1080);
});
