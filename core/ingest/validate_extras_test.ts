import assert from "node:assert/strict";
import { validateEvents, validateIo } from "./validate_extras.ts";

const NOW = Date.parse("2026-11-22T10:00:00Z");
const ctx = { now: NOW, oldest: NOW - 30 * 86_400_000, feederSlots: [] };
const dip = {
  id: "evt-1",
  type: "DIP",
  start: "2026-11-22T09:59:41.120Z",
  end: "2026-11-22T09:59:41.360Z",
  start_phase: "L1",
  end_phase: "L2",
  extreme_pct: 62.3,
  rms_trace: { interval_ms: 10, values_pct: [99.8, 71.2, 62.3, 98.9] },
};

Deno.test("validateEvents() accepts a device dip with its trace and refuses broken ones by field", () => {
  const { rows, rejected } = validateEvents([
    dip,
    { ...dip, end: "2026-11-22T09:59:40.000Z" },
    { ...dip, type: "SAG" },
    { ...dip, extreme_pct: Number.NaN },
    { ...dip, rms_trace: { interval_ms: 10, values_pct: [1, "x"] } },
    { ...dip, start_phase: "N" },
  ], ctx);
  assert.equal(rows.length, 1);
  assert.equal(rows[0]!.end - rows[0]!.start, 240);
  assert.deepEqual(rejected.map((r) => [r.index, r.field, r.key]), [
    [1, "end", "ingest.endBeforeStart"],
    [2, "type", "ingest.outOfRange"],
    [3, "extreme_pct", "ingest.outOfRange"],
    [4, "rms_trace", "ingest.invalidTrace"],
    [5, "start_phase", "ingest.outOfRange"],
  ]);
});

Deno.test("validateIo() accepts digital 0/1 and analog values and refuses a digital 2", () => {
  const ts = "2026-11-22T09:59:40Z";
  const { rows, rejected } = validateIo([
    { ts, module: 1, channel: 1, kind: "DI", value: 1 },
    { ts, module: 2, channel: 1, kind: "AI", value: 4.2 },
    { ts, module: 1, channel: 2, kind: "DO", value: 2 },
    { ts, module: 9, channel: 1, kind: "DI", value: 0 },
  ], ctx);
  assert.equal(rows.length, 2);
  assert.deepEqual(rejected.map((r) => [r.index, r.field]), [[2, "value"], [3, "module"]]);
});

Deno.test("validateEvents() classifies by the EN 50160 tables and refuses a self-contradicting event", () => {
  const { rows, rejected } = validateEvents([
    dip,
    { ...dip, id: "evt-2", extreme_pct: 3 },
    { ...dip, id: "evt-3", type: "SWELL", extreme_pct: 100 },
  ], ctx);
  assert.deepEqual(rows.map((r) => [r.id, r.kind, r.tableCell]), [
    ["evt-1", "DIP", rows[0]!.tableCell],
    ["evt-2", "INTERRUPTION_SHORT", null],
  ]);
  assert.ok(rows[0]!.tableCell?.includes("/"), "a dip sits in a cell of the dip table");
  assert.deepEqual(rejected.map((r) => [r.index, r.key]), [[2, "ingest.eventInconsistent"]]);
});
