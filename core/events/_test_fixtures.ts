/** Shared fixtures of the event tests (not exported from mod.ts). */
import assert from "node:assert/strict";
import { type DeviceEventRecord, EventValidationError } from "./record.ts";

export const START = "2026-11-22T08:59:41.120Z";

/** A valid DIP record lasting `durationMs`, with fields replaced by `fields`. */
export function event(
  durationMs: number,
  fields: Partial<DeviceEventRecord> = {},
): DeviceEventRecord {
  return {
    id: "evt-1",
    type: "DIP",
    start: START,
    end: new Date(Date.parse(START) + durationMs).toISOString(),
    start_phase: "L1",
    end_phase: "L2",
    extreme_pct: 62.3,
    delta_u_pct: null,
    ...fields,
  };
}

/** Asserts that `check(record)` throws the named field's error with `message`. */
export function assertRejectsWith(
  check: (record: DeviceEventRecord) => unknown,
  record: DeviceEventRecord,
  field: string,
  message: string,
): void {
  assert.throws(() => check(record), (error: unknown) => {
    assert.ok(error instanceof EventValidationError);
    assert.equal(error.field, field);
    assert.equal(error.message, message);
    return true;
  });
}
