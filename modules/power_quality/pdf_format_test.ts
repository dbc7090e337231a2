import assert from "node:assert/strict";
import { formatters, localMidnights } from "./pdf_format.ts";

const formats = (numberFormat: string, dateFormat = "DD.MM.YYYY", timeFormat = "HH:mm") => ({
  numberFormat,
  dateFormat,
  timeFormat,
  timezone: "Europe/Zurich",
});

Deno.test("formatters() write numbers in the customer's number format", () => {
  const cases: [string, string][] = [
    ["1'234.56", "-12'345.68"],
    ["1,234.56", "-12,345.68"],
    ["1.234,56", "-12.345,68"],
    ["1 234,56", "-12\u202f345,68"],
    ["1234.56", "-12345.68"],
  ];
  for (const [format, expected] of cases) {
    const fmt = formatters("en", formats(format));
    assert.equal(fmt.number(-12345.678), expected, format);
  }
  const fmt = formatters("en", formats("1'234.56"));
  assert.equal(fmt.number(13.0), "13"); // trailing zeros dropped
  assert.equal(fmt.number(0.1049, 3), "0.105");
  assert.equal(fmt.number(-0.0001), "0");
  assert.equal(fmt.number(null), "–");
  assert.equal(fmt.integer(2148), "2'148");
});

Deno.test("formatters() write dates and times in the customer's zone and formats", () => {
  // 2026-07-01 22:30:05.120 UTC is 2 July 00:30 in Zurich (summer time).
  const at = new Date(Date.UTC(2026, 6, 1, 22, 30, 5, 120));
  assert.equal(formatters("en", formats("1'234.56")).date(at), "02.07.2026 00:30");
  assert.equal(
    formatters("en", formats("1,234.56", "MM/DD/YYYY", "hh:mm A")).date(at),
    "07/02/2026 12:30 AM",
  );
  assert.equal(formatters("en", formats("1.234,56")).time(at), "00:30:05,120");
  assert.equal(formatters("fr", formats("1'234.56", "MMM DD, YYYY")).day(at), "2 juillet 2026");
  assert.equal(
    formatters("en", { ...formats("1234.56"), timezone: "Mars/Olympus" }).timezone,
    "UTC",
  );
});

Deno.test("localMidnights() follows the zone's offset across a DST change", () => {
  // 2026-03-29: Zurich goes from UTC+1 to UTC+2.
  const from = Date.UTC(2026, 2, 27);
  const midnights = localMidnights(from, from + 4 * 86_400_000, "Europe/Zurich");
  assert.deepEqual(midnights.map((t) => new Date(t).toISOString()), [
    "2026-03-27T23:00:00.000Z",
    "2026-03-28T23:00:00.000Z",
    "2026-03-29T22:00:00.000Z",
    "2026-03-30T22:00:00.000Z",
  ]);
});
