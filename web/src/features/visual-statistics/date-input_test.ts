import assert from "node:assert/strict";
import { formatInput, inputPattern, parseInput } from "./date-input.ts";

const at = Date.parse("2026-11-20T09:05:07Z"); // 10:05:07 in Zurich

Deno.test("inputPattern() joins the customer's date and time formats; the long date is typed ISO", () => {
  const f = (date: string, time: string) =>
    inputPattern({ default_date_format: date, default_time_format: time });
  assert.equal(f("DD.MM.YYYY", "HH:mm"), "DD.MM.YYYY HH:mm");
  assert.equal(f("MM/DD/YYYY", "hh:mm A"), "MM/DD/YYYY hh:mm A");
  assert.equal(f("MMM DD, YYYY", "HH:mm:ss"), "YYYY-MM-DD HH:mm:ss");
});

Deno.test("formatInput() writes an instant on the customer's clock in the pattern", () => {
  assert.equal(formatInput(at, "DD.MM.YYYY HH:mm", "Europe/Zurich"), "20.11.2026 10:05");
  assert.equal(
    formatInput(at, "MM/DD/YYYY hh:mm:ss A", "America/New_York"),
    "11/20/2026 04:05:07 AM",
  );
  assert.equal(formatInput(at, "YYYY-MM-DD HH:mm", "UTC"), "2026-11-20 09:05");
  assert.equal(formatInput(Number.NaN, "YYYY-MM-DD HH:mm", "UTC"), "");
});

Deno.test("parseInput() reads back what formatInput() wrote, in every format", () => {
  const patterns = [
    "DD.MM.YYYY HH:mm:ss",
    "DD/MM/YYYY HH:mm:ss",
    "MM/DD/YYYY hh:mm:ss A",
    "YYYY-MM-DD HH:mm:ss",
  ];
  for (const pattern of patterns) {
    for (const zone of ["Europe/Zurich", "America/New_York", "Asia/Kolkata"]) {
      assert.equal(
        parseInput(formatInput(at, pattern, zone), pattern, zone),
        at,
        `${pattern} ${zone}`,
      );
    }
  }
});

Deno.test("parseInput() accepts one-digit fields and loose spaces, 12 AM and 12 PM", () => {
  assert.equal(
    parseInput(" 20.11.2026  10:05 ", "DD.MM.YYYY HH:mm", "Europe/Zurich"),
    Date.parse("2026-11-20T09:05:00Z"),
  );
  assert.equal(
    parseInput("1.2.2026 9:30", "DD.MM.YYYY HH:mm", "UTC"),
    Date.parse("2026-02-01T09:30:00Z"),
  );
  assert.equal(
    parseInput("02/01/2026 12:15 am", "MM/DD/YYYY hh:mm A", "UTC"),
    Date.parse("2026-02-01T00:15:00Z"),
  );
  assert.equal(
    parseInput("02/01/2026 12:15 PM", "MM/DD/YYYY hh:mm A", "UTC"),
    Date.parse("2026-02-01T12:15:00Z"),
  );
});

Deno.test("parseInput() gives NaN for text off the pattern or an impossible date", () => {
  for (
    const text of [
      "",
      "2026-11-20 10:05",
      "31.02.2026 10:00",
      "20.11.2026 24:00",
      "20.11.2026 10:61",
    ]
  ) {
    assert.ok(Number.isNaN(parseInput(text, "DD.MM.YYYY HH:mm", "UTC")), text);
  }
  assert.ok(Number.isNaN(parseInput("11/20/2026 13:00 PM", "MM/DD/YYYY hh:mm A", "UTC")));
});
