import assert from "node:assert/strict";
import { assertRejectsWith, event, START } from "./_test_fixtures.ts";
import { type DeviceEventRecord, EventValidationError, validateEventRecord } from "./record.ts";

/** Asserts that the check throws the named field's error with `message`. */
function assertRejects(record: DeviceEventRecord, field: string, message: string): void {
  assertRejectsWith(validateEventRecord, record, field, message);
}

Deno.test("validateEventRecord() parses times to epoch ms and keeps whole-second times", () => {
  const valid = validateEventRecord(
    event(240, { start: "2026-11-22T08:59:41Z", end: "2026-11-22T08:59:41.240Z" }),
  );
  assert.equal(valid.end_ms - valid.start_ms, 240);
  assert.equal(valid.type, "DIP");
  assert.equal(valid.rms_trace, null);
  assert.equal(valid.delta_u_pct, null);
});

Deno.test("validateEventRecord() accepts epoch-ms times, missing phases and an empty trace", () => {
  const start = Date.parse(START);
  const valid = validateEventRecord(
    event(0, {
      start,
      end: start + 240,
      start_phase: null,
      end_phase: undefined,
      rms_trace: { interval_ms: 10, values_pct: [] },
    }),
  );
  assert.deepEqual(
    [valid.start_ms, valid.end_ms, valid.start_phase, valid.end_phase, valid.rms_trace],
    [start, start + 240, null, null, null],
  );
});

Deno.test("validateEventRecord() rejects an end before the start", () => {
  const record = event(100, { end: "2026-11-22T08:59:41.119Z" });
  assertRejects(record, "end", "Cannot classify event evt-1: end is before start");
});

Deno.test("validateEventRecord() rejects a zero-length event", () => {
  assertRejects(
    event(0),
    "end",
    "Cannot classify event evt-1: end equals start (an event lasts at least 1 ms)",
  );
});

Deno.test("validateEventRecord() rejects an extreme outside 0..200 % or not finite", () => {
  const outside = "Cannot classify event evt-1: extreme_pct 250 is outside 0..200 %";
  assertRejects(event(100, { extreme_pct: 250 }), "extreme_pct", outside);
  assertRejects(
    event(100, { extreme_pct: -1 }),
    "extreme_pct",
    "Cannot classify event evt-1: extreme_pct -1 is outside 0..200 %",
  );
  assertRejects(
    event(100, { extreme_pct: NaN }),
    "extreme_pct",
    "Cannot classify event evt-1: extreme_pct is not a finite number",
  );
});

Deno.test("validateEventRecord() rejects an unknown or lower-case type", () => {
  const expected = "(expected DIP, SWELL, INTERRUPTION, RVC, MSV)";
  assertRejects(
    event(100, { type: "SAG" }),
    "type",
    `Cannot classify event evt-1: type "SAG" is unknown ${expected}`,
  );
  assertRejects(
    event(100, { type: "dip" }),
    "type",
    `Cannot classify event evt-1: type "dip" is unknown ${expected}`,
  );
});

Deno.test("validateEventRecord() rejects times that are not UTC ISO-8601 and phases other than L1-L3", () => {
  assertRejects(
    event(100, { start: "2026-11-22T09:59:41.120+01:00" }),
    "start",
    'Cannot classify event evt-1: start is not a UTC ISO-8601 time or epoch ms: "2026-11-22T09:59:41.120+01:00"',
  );
  assertRejects(
    event(100, { end: 1.5 }),
    "end",
    "Cannot classify event evt-1: end is not a UTC ISO-8601 time or epoch ms: 1.5",
  );
  assertRejects(
    event(100, { end: "yesterday" }),
    "end",
    'Cannot classify event evt-1: end is not a UTC ISO-8601 time or epoch ms: "yesterday"',
  );
  assertRejects(
    event(100, { end_phase: "N" }),
    "end_phase",
    'Cannot classify event evt-1: end_phase "N" is not L1, L2 or L3',
  );
});

Deno.test("validateEventRecord() rejects an RMS trace with a non-finite value or no positive interval", () => {
  assertRejects(
    event(100, { rms_trace: { interval_ms: 10, values_pct: [99, Infinity] } }),
    "rms_trace",
    "Cannot classify event evt-1: rms_trace.values_pct[1] is not a number in 0..200 %",
  );
  assertRejects(
    event(100, { rms_trace: { interval_ms: 0, values_pct: [99] } }),
    "rms_trace",
    "Cannot classify event evt-1: rms_trace.interval_ms is not a positive number",
  );
});

Deno.test("EventValidationError carries the event id and field for the ingest answer", () => {
  const error = new EventValidationError("evt-9", "end", "end is before start");
  assert.equal(error.name, "EventValidationError");
  assert.equal(error.eventId, "evt-9");
  assert.equal(error.field, "end");
  assert.ok(error instanceof Error);
});
