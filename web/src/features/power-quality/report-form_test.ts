import assert from "node:assert/strict";
import {
  instantToWall,
  isoDuration,
  type ReportFormValues,
  toInput,
  validateReportForm,
  wallToInstant,
} from "./report-form.ts";

const NOW = Date.UTC(2026, 10, 25, 12);
const limits = {
  max_reports: 50,
  max_future_days: 30,
  data_lifetime_days: 400,
  min_period_minutes: 10,
  max_period_days: 366,
};
const values = (over: Partial<ReportFormValues> = {}): ReportFormValues => ({
  name: "Week 47",
  language: "en",
  node: "n1",
  feeders: [],
  start: "2026-11-16T00:00",
  mode: "duration",
  amount: "1",
  unit: "weeks",
  end: "",
  limitSet: "EN50160",
  ...over,
});
const check = (over: Partial<ReportFormValues>, nodeHasCell: boolean | null = true) =>
  validateReportForm(values(over), { limits, timeZone: "UTC", now: NOW, nodeHasCell });

Deno.test("validateReportForm() accepts a week and sends it as P1W from the UTC start", () => {
  assert.deepEqual(check({}), {});
  assert.deepEqual(toInput(values(), "UTC"), {
    name: "Week 47",
    language: "en",
    node: "n1",
    start: "2026-11-16T00:00:00.000Z",
    period: "P1W",
    standard: "EN50160",
  });
});

Deno.test("validateReportForm() mirrors the name rules of spec 5 with the server's keys", () => {
  assert.deepEqual(check({ name: "" }).name, { key: "validation.pleaseInputName" });
  assert.deepEqual(check({ name: "ab" }).name, { key: "validation.nameMin", params: { count: 3 } });
  assert.deepEqual(check({ name: "x".repeat(61) }).name, {
    key: "validation.nameMax",
    params: { count: 60 },
  });
  assert.equal(check({ name: "a/b?" }).name?.key, "validation.forbiddenChars");
});

Deno.test("validateReportForm() gives the period codes 401, 402 and 403 like the server", () => {
  assert.equal(check({ amount: "5", unit: "minutes" }).period?.code, 403);
  assert.equal(check({ amount: "10", unit: "minutes" }).period, undefined);
  assert.equal(check({ amount: "367", unit: "days", start: "2025-11-01T00:00" }).period?.code, 402);
  assert.equal(check({ amount: "366", unit: "days", start: "2025-11-01T00:00" }).period, undefined);
  assert.equal(check({ start: "2026-11-16T00:05" }).period?.code, 401);
  assert.equal(check({ mode: "end", end: "2026-11-15T00:00" }).period?.code, 401);
});

Deno.test("validateReportForm() refuses starts beyond the limits (512, 513) and nodes without cell (505)", () => {
  assert.equal(check({ start: "2027-01-01T00:00" }).start?.code, 513);
  assert.equal(check({ start: "2025-01-01T00:00" }).start?.code, 512);
  assert.equal(check({}, false).node?.code, 505);
  assert.equal(check({ node: "" }).node?.key, "validation.required");
});

Deno.test("wallToInstant() reads the customer's clock, across a DST change", () => {
  const zurich = "Europe/Zurich";
  assert.equal(wallToInstant("2026-11-16T01:00", zurich), Date.UTC(2026, 10, 16, 0));
  assert.equal(wallToInstant("2026-07-01T02:00", zurich), Date.UTC(2026, 6, 1, 0));
  assert.equal(instantToWall(Date.UTC(2026, 6, 1, 0), zurich), "2026-07-01T02:00");
  assert.ok(Number.isNaN(wallToInstant("2026-02-30T00:00", zurich)));
  assert.equal(isoDuration("90", "minutes"), "PT90M");
  assert.equal(isoDuration("1.5", "days"), null);
});
