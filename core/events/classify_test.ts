import assert from "node:assert/strict";
import { assertRejectsWith, event } from "./_test_fixtures.ts";
import { classifyEvent } from "./classify.ts";
import type { DeviceEventRecord } from "./record.ts";
import { DIP_COLUMNS, DIP_ROWS, SWELL_COLUMNS, SWELL_ROWS } from "./tables.ts";

/** Asserts that the check throws the named field's error with `message`. */
function assertRejects(record: DeviceEventRecord, field: string, message: string): void {
  assertRejectsWith(classifyEvent, record, field, message);
}

const DIP_RESIDUALS = [85, 75, 62, 20];
const DIP_DURATIONS = [120, 240, 800, 2_500, 45_000];

DIP_ROWS.slice(0, 4).forEach((row, r) => {
  DIP_COLUMNS.forEach((column, c) => {
    const u = DIP_RESIDUALS[r]!;
    const t = DIP_DURATIONS[c]!;
    Deno.test(
      `classifyEvent() puts a ${u} % residual lasting ${t} ms in dip row ${row.id} column ${column.id}`,
      () => {
        const classified = classifyEvent(event(t, { extreme_pct: u }));
        assert.equal(classified.kind, "DIP");
        assert.deepEqual(classified.cell, { table: "DIP", row: row.id, column: column.id });
        assert.equal(classified.reclassified, null);
        assert.equal(classified.outside_table, null);
      },
    );
  });
});

const SWELL_PEAKS = [130, 115];
const SWELL_DURATIONS = [300, 2_000, 20_000];

SWELL_ROWS.forEach((row, r) => {
  SWELL_COLUMNS.forEach((column, c) => {
    const u = SWELL_PEAKS[r]!;
    const t = SWELL_DURATIONS[c]!;
    Deno.test(
      `classifyEvent() puts a ${u} % peak lasting ${t} ms in swell row ${row.id} column ${column.id}`,
      () => {
        const classified = classifyEvent(event(t, { type: "SWELL", extreme_pct: u }));
        assert.equal(classified.kind, "SWELL");
        assert.deepEqual(classified.cell, { table: "SWELL", row: row.id, column: column.id });
        assert.equal(classified.reclassified, null);
      },
    );
  });
});

Deno.test("classifyEvent() returns every field of the protocol's example record", () => {
  const classified = classifyEvent({
    id: "evt-000123",
    type: "DIP",
    start: "2026-11-22T08:59:41.120Z",
    end: "2026-11-22T08:59:41.360Z",
    start_phase: "L1",
    end_phase: "L2",
    extreme_pct: 62.3,
    delta_u_pct: null,
    rms_trace: { interval_ms: 10, values_pct: [99.8, 71.2, 62.3, 65.0, 98.9] },
  });
  assert.deepEqual(classified, {
    id: "evt-000123",
    kind: "DIP",
    device_type: "DIP",
    start: "2026-11-22T08:59:41.120Z",
    end: "2026-11-22T08:59:41.360Z",
    duration_ms: 240,
    start_phase: "L1",
    end_phase: "L2",
    extreme_pct: 62.3,
    delta_u_pct: null,
    cell: { table: "DIP", row: "70-40", column: "0.2-0.5s" },
    outside_table: null,
    reclassified: null,
  });
});

Deno.test("classifyEvent() puts a residual of exactly 80 % in row 90-80, not 80-70", () => {
  assert.equal(classifyEvent(event(100, { extreme_pct: 80 })).cell?.row, "90-80");
});

Deno.test("classifyEvent() keeps a residual of exactly 5 % a dip in row 40-5", () => {
  const classified = classifyEvent(event(100, { extreme_pct: 5 }));
  assert.equal(classified.kind, "DIP");
  assert.equal(classified.cell?.row, "40-5");
});

Deno.test("classifyEvent() puts a dip of exactly 200 ms in column 10-200 ms, 201 ms in the next", () => {
  assert.equal(classifyEvent(event(200)).cell?.column, "10-200ms");
  assert.equal(classifyEvent(event(201)).cell?.column, "0.2-0.5s");
});

Deno.test("classifyEvent() refuses a DIP whose residual is exactly 90 % (no dip)", () => {
  assertRejects(
    event(100, { extreme_pct: 90 }),
    "extreme_pct",
    "Cannot classify event evt-1: extreme_pct 90 of a DIP lies between the 90 % dip and 110 % " +
      "swell thresholds",
  );
});

Deno.test("classifyEvent() calls an interruption of exactly 180 s short and 180.001 s long", () => {
  const fields = { type: "INTERRUPTION", extreme_pct: 1 };
  assert.equal(classifyEvent(event(180_000, fields)).kind, "INTERRUPTION_SHORT");
  assert.equal(classifyEvent(event(180_001, fields)).kind, "INTERRUPTION_LONG");
});

Deno.test("classifyEvent() accepts a long interruption lasting 2 days with no table cell", () => {
  const classified = classifyEvent(event(172_800_000, { type: "INTERRUPTION", extreme_pct: 0 }));
  assert.equal(classified.kind, "INTERRUPTION_LONG");
  assert.equal(classified.cell, null);
  assert.equal(classified.outside_table, null);
});

Deno.test("classifyEvent() reclassifies a DIP with a 3 % residual as a short interruption", () => {
  const classified = classifyEvent(event(1_500, { extreme_pct: 3 }));
  assert.equal(classified.kind, "INTERRUPTION_SHORT");
  assert.equal(classified.device_type, "DIP");
  assert.equal(classified.cell, null);
  assert.deepEqual(classified.reclassified, {
    from: "DIP",
    note: "extreme_pct 3 is below the 5 % interruption threshold",
  });
});

Deno.test("classifyEvent() reclassifies an INTERRUPTION with a 40 % residual as a dip", () => {
  const classified = classifyEvent(event(300, { type: "INTERRUPTION", extreme_pct: 40 }));
  assert.equal(classified.kind, "DIP");
  assert.deepEqual(classified.cell, { table: "DIP", row: "70-40", column: "0.2-0.5s" });
  assert.deepEqual(classified.reclassified, {
    from: "INTERRUPTION",
    note: "extreme_pct 40 is below the 90 % dip threshold but not below the 5 % interruption " +
      "threshold",
  });
});

Deno.test("classifyEvent() reclassifies a SWELL at 85 % as a dip and a DIP at 115 % as a swell", () => {
  const dip = classifyEvent(event(100, { type: "SWELL", extreme_pct: 85 }));
  assert.equal(dip.kind, "DIP");
  assert.deepEqual(dip.reclassified, {
    from: "SWELL",
    note: "extreme_pct 85 is below the 90 % dip threshold",
  });
  const swell = classifyEvent(event(100, { extreme_pct: 115 }));
  assert.equal(swell.kind, "SWELL");
  assert.deepEqual(swell.cell, { table: "SWELL", row: "120-110", column: "10-500ms" });
  assert.equal(swell.reclassified?.note, "extreme_pct 115 is above the 110 % swell threshold");
});

Deno.test("classifyEvent() keeps an RVC inside 90..110 % and reclassifies one reaching 88 % as a dip", () => {
  const rvc = classifyEvent(event(1_000, { type: "RVC", extreme_pct: 96, delta_u_pct: -4 }));
  assert.equal(rvc.kind, "RVC");
  assert.equal(rvc.cell, null);
  assert.equal(rvc.delta_u_pct, -4);
  assert.equal(rvc.reclassified, null);
  const dip = classifyEvent(event(1_000, { type: "RVC", extreme_pct: 88, delta_u_pct: -12 }));
  assert.equal(dip.kind, "DIP");
  assert.equal(dip.reclassified?.from, "RVC");
});

Deno.test("classifyEvent() keeps an RVC without extreme and an MSV as they are", () => {
  const rvc = classifyEvent(event(1_000, { type: "RVC", extreme_pct: null, delta_u_pct: 3 }));
  assert.equal(rvc.kind, "RVC");
  const msv = classifyEvent(event(3_000, { type: "MSV", extreme_pct: 2.5 }));
  assert.equal(msv.kind, "MSV");
  assert.equal(msv.cell, null);
  assert.equal(msv.reclassified, null);
});

Deno.test("classifyEvent() reports a dip lasting 75 s as outside the dip table", () => {
  const classified = classifyEvent(event(75_000, { extreme_pct: 85 }));
  assert.equal(classified.kind, "DIP");
  assert.equal(classified.cell, null);
  assert.deepEqual(classified.outside_table, {
    table: "DIP",
    note: "lasts 75 s, longer than the 60 s the dip table holds (a slow voltage variation, " +
      "not a dip)",
  });
  assert.equal(classifyEvent(event(60_000, { extreme_pct: 85 })).cell?.column, "5-60s");
});

Deno.test("classifyEvent() reports a swell lasting 61 s as outside the swell table", () => {
  const classified = classifyEvent(event(61_000, { type: "SWELL", extreme_pct: 125 }));
  assert.equal(classified.cell, null);
  assert.equal(classified.outside_table?.table, "SWELL");
});

Deno.test("classifyEvent() takes the extreme from the RMS trace when the cell sent none", () => {
  const trace = { interval_ms: 10, values_pct: [99.8, 71.2, 62.3, 65.0, 98.9] };
  const dip = classifyEvent(event(240, { extreme_pct: null, rms_trace: trace }));
  assert.equal(dip.extreme_pct, 62.3);
  assert.equal(dip.cell?.row, "70-40");
  const swell = classifyEvent(
    event(240, {
      type: "SWELL",
      extreme_pct: null,
      rms_trace: { ...trace, values_pct: [100, 117] },
    }),
  );
  assert.equal(swell.extreme_pct, 117);
});

Deno.test("classifyEvent() rejects a dip lasting more than 1 day", () => {
  assertRejects(
    event(86_400_001, { extreme_pct: 85 }),
    "end",
    "Cannot classify event evt-1: a DIP lasting 86400001 ms (more than 1 day) is not plausible",
  );
  assert.equal(classifyEvent(event(86_400_000, { extreme_pct: 85 })).kind, "DIP");
});

Deno.test("classifyEvent() rejects a record missing what its type needs", () => {
  assertRejects(
    event(100, { extreme_pct: null }),
    "extreme_pct",
    "Cannot classify event evt-1: extreme_pct is missing and there is no rms_trace to take it " +
      "from (needed for a DIP)",
  );
  assertRejects(
    event(1_000, { type: "RVC", extreme_pct: 97 }),
    "delta_u_pct",
    "Cannot classify event evt-1: delta_u_pct is missing for an RVC",
  );
  assertRejects(event(100, { id: "" }), "id", "Cannot classify event (no id): id is missing");
});

Deno.test("classifyEvent() passes on the record's validation error (end before start)", () => {
  const record = event(100, { end: "2026-11-22T08:59:41.000Z" });
  assertRejects(record, "end", "Cannot classify event evt-1: end is before start");
});
