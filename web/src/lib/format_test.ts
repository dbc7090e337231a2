import assert from "node:assert/strict";
import {
  type CustomerFormats,
  formatDate,
  formatDateTime,
  formatNumber,
  formatTime,
} from "./format.ts";

const zurich = (overrides: Partial<CustomerFormats> = {}): CustomerFormats => ({
  default_date_format: "DD.MM.YYYY",
  default_time_format: "HH:mm",
  default_number_format: "1'234.56",
  default_timezone: "Europe/Zurich",
  ...overrides,
});
// 23:30 UTC on 31 Dec 2026 is already 1 January 2027 in Zurich (UTC+1).
const NEW_YEAR = "2026-12-31T23:30:05Z";

Deno.test("formatDate() writes the date in the customer's time zone and format", () => {
  assert.equal(formatDate(NEW_YEAR, zurich()), "01.01.2027");
  assert.equal(formatDate(NEW_YEAR, zurich({ default_date_format: "MM/DD/YYYY" })), "01/01/2027");
  assert.equal(formatDate(NEW_YEAR, zurich({ default_date_format: "YYYY-MM-DD" })), "2027-01-01");
  assert.equal(
    formatDate(NEW_YEAR, zurich({ default_timezone: "America/New_York" })),
    "31.12.2026",
  );
});

Deno.test("formatDate() maps 'MMM DD, YYYY' to the long date of the language", () => {
  const f = zurich({ default_date_format: "MMM DD, YYYY" });
  assert.equal(formatDate(NEW_YEAR, f, "en"), "January 1, 2027");
  assert.equal(formatDate(NEW_YEAR, f, "fr"), "1 janvier 2027");
  assert.equal(formatDate(NEW_YEAR, f, "de"), "1. Januar 2027");
});

Deno.test("formatTime() writes 24 h and 12 h times with AM/PM", () => {
  assert.equal(formatTime(NEW_YEAR, zurich()), "00:30");
  assert.equal(formatTime(NEW_YEAR, zurich({ default_time_format: "hh:mm A" })), "12:30 AM");
  assert.equal(
    formatTime("2027-06-01T13:05:09Z", zurich({ default_time_format: "hh:mm:ss A" })),
    "03:05:09 PM",
  );
});

Deno.test("formatDateTime() joins both and yields '' for an invalid instant", () => {
  assert.equal(formatDateTime(NEW_YEAR, zurich()), "01.01.2027 00:30");
  assert.equal(formatDateTime("not a date", zurich()), "");
});

Deno.test("formatDate() falls back to UTC for an unknown time zone", () => {
  assert.equal(formatDate(NEW_YEAR, zurich({ default_timezone: "Mars/Olympus" })), "31.12.2026");
});

Deno.test("formatNumber() uses the customer's separators and 2 digits", () => {
  const n = (format: string, value: number, digits?: number) =>
    formatNumber(value, { default_number_format: format }, digits);
  assert.equal(n("1'234.56", 1234567.891), "1'234'567.89");
  assert.equal(n("1,234.56", 1234.5), "1,234.50");
  assert.equal(n("1.234,56", -1234.5), "-1.234,50");
  assert.equal(n("1 234,56", 1234.5), "1\u202f234,50");
  assert.equal(n("1234.56", 1234.5, 0), "1235");
  assert.equal(n("1'234.56", -0.001), "0.00");
  assert.equal(n("1'234.56", Number.NaN), "–");
});
