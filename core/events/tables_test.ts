import assert from "node:assert/strict";
import {
  DIP_COLUMNS,
  DIP_ROWS,
  dipCell,
  dipColumn,
  dipRow,
  interruptionKind,
  SWELL_COLUMNS,
  SWELL_ROWS,
  swellCell,
  swellColumn,
  swellRow,
  THRESHOLDS,
} from "./tables.ts";

// One residual (or peak) inside each row and one duration inside each column, in table order.
const DIP_ROW_SAMPLES = [85, 75, 55, 20, 2];
const DIP_COLUMN_SAMPLES = [100, 350, 750, 3_000, 30_000];
const SWELL_ROW_SAMPLES = [125, 115];
const SWELL_COLUMN_SAMPLES = [250, 2_500, 30_000];

DIP_ROWS.forEach((row, r) => {
  DIP_COLUMNS.forEach((column, c) => {
    const u = DIP_ROW_SAMPLES[r]!;
    const t = DIP_COLUMN_SAMPLES[c]!;
    Deno.test(`dipCell() puts ${u} % lasting ${t} ms in row ${row.id} column ${column.id}`, () => {
      assert.deepEqual(dipCell(u, t), { table: "DIP", row: row.id, column: column.id });
    });
  });
});

SWELL_ROWS.forEach((row, r) => {
  SWELL_COLUMNS.forEach((column, c) => {
    const u = SWELL_ROW_SAMPLES[r]!;
    const t = SWELL_COLUMN_SAMPLES[c]!;
    Deno.test(`swellCell() puts ${u} % lasting ${t} ms in row ${row.id} column ${column.id}`, () => {
      assert.deepEqual(swellCell(u, t), { table: "SWELL", row: row.id, column: column.id });
    });
  });
});

Deno.test("dipRow() keeps each lower edge in its row (EN 50160 '90 > u >= 80')", () => {
  assert.equal(dipRow(90), null);
  assert.equal(dipRow(89.99), "90-80");
  assert.equal(dipRow(80), "90-80");
  assert.equal(dipRow(79.99), "80-70");
  assert.equal(dipRow(70), "80-70");
  assert.equal(dipRow(40), "70-40");
  assert.equal(dipRow(5), "40-5");
  assert.equal(dipRow(4.99), "<5");
  assert.equal(dipRow(0), "<5");
});

Deno.test("dipColumn() keeps each upper edge in its column (EN 50160 '10 <= t <= 200')", () => {
  assert.equal(dipColumn(200), "10-200ms");
  assert.equal(dipColumn(201), "0.2-0.5s");
  assert.equal(dipColumn(500), "0.2-0.5s");
  assert.equal(dipColumn(1_000), "0.5-1s");
  assert.equal(dipColumn(5_000), "1-5s");
  assert.equal(dipColumn(60_000), "5-60s");
  assert.equal(dipColumn(60_001), null);
});

Deno.test("dipColumn() puts a 60 Hz half cycle (8.3 ms) in the first column", () => {
  assert.equal(dipColumn(1000 / 120), "10-200ms");
  assert.equal(dipColumn(-1), null);
});

Deno.test("swellRow() starts strictly above 110 % and puts exactly 120 % in row >=120", () => {
  assert.equal(swellRow(110), null);
  assert.equal(swellRow(110.01), "120-110");
  assert.equal(swellRow(119.99), "120-110");
  assert.equal(swellRow(120), ">=120");
  assert.equal(swellRow(200), ">=120");
});

Deno.test("swellColumn() keeps each upper edge in its column and ends at 60 s", () => {
  assert.equal(swellColumn(500), "10-500ms");
  assert.equal(swellColumn(501), "0.5-5s");
  assert.equal(swellColumn(5_000), "0.5-5s");
  assert.equal(swellColumn(60_000), "5-60s");
  assert.equal(swellColumn(60_001), null);
});

Deno.test("dipCell() and swellCell() give null for no dip, no swell or beyond 60 s", () => {
  assert.equal(dipCell(95, 100), null);
  assert.equal(dipCell(50, 70_000), null);
  assert.equal(swellCell(105, 100), null);
  assert.equal(swellCell(130, 70_000), null);
});

Deno.test("interruptionKind() calls exactly 3 min short and 3 min + 1 ms long", () => {
  assert.equal(interruptionKind(180_000), "INTERRUPTION_SHORT");
  assert.equal(interruptionKind(180_001), "INTERRUPTION_LONG");
  assert.equal(interruptionKind(10), "INTERRUPTION_SHORT");
});

Deno.test("DIP_ROWS and SWELL_ROWS tile the voltage axis from the thresholds without gaps", () => {
  assert.equal(DIP_ROWS[0]!.maxPct, THRESHOLDS.dipStartPct);
  assert.equal(DIP_ROWS.at(-1)!.minPct, 0);
  assert.equal(DIP_ROWS.at(-1)!.maxPct, THRESHOLDS.interruptionPct);
  for (let r = 1; r < DIP_ROWS.length; r++) {
    assert.equal(DIP_ROWS[r]!.maxPct, DIP_ROWS[r - 1]!.minPct);
  }
  assert.equal(SWELL_ROWS.at(-1)!.minPct, THRESHOLDS.swellStartPct);
  assert.equal(SWELL_ROWS[1]!.maxPct, SWELL_ROWS[0]!.minPct);
});

Deno.test("DIP_COLUMNS and SWELL_COLUMNS end at the 60 s the tables hold", () => {
  assert.equal(DIP_COLUMNS.at(-1)!.maxMs, THRESHOLDS.tableMaxMs);
  assert.equal(SWELL_COLUMNS.at(-1)!.maxMs, THRESHOLDS.tableMaxMs);
  assert.equal(THRESHOLDS.dipEndPct - THRESHOLDS.dipStartPct, 2);
  assert.equal(THRESHOLDS.swellStartPct - THRESHOLDS.swellEndPct, 2);
});
