import assert from "node:assert/strict";
import { DIP_COLUMNS, DIP_ROWS, SWELL_COLUMNS, SWELL_ROWS } from "../../core/mod.ts";
import {
  DIP_COLUMN_IDS,
  DIP_ROW_IDS,
  eventListQuery,
  filterProblems,
  insideCurve,
  SWELL_COLUMN_IDS,
  SWELL_ROW_IDS,
} from "./contract.ts";
import { eventKey, parseEventKey } from "./keys.ts";
import { tableCellOf, typeOfKind } from "./classification.ts";

Deno.test("contract table ids equal the core's EN 50160 tables", () => {
  assert.deepEqual([...DIP_ROW_IDS], DIP_ROWS.map((r) => r.id));
  assert.deepEqual([...DIP_COLUMN_IDS], DIP_COLUMNS.map((c) => c.id));
  assert.deepEqual([...SWELL_ROW_IDS], SWELL_ROWS.map((r) => r.id));
  assert.deepEqual([...SWELL_COLUMN_IDS], SWELL_COLUMNS.map((c) => c.id));
});

Deno.test("insideCurve() ITIC lower curve: steps belong to the shorter duration", () => {
  // Up to 20 ms anything rides through, even 0 pu.
  assert.equal(insideCurve("ITIC", 0, 0.01), true);
  assert.equal(insideCurve("ITIC", 0, 0.02), true);
  assert.equal(insideCurve("ITIC", 0.69, 0.021), false);
  assert.equal(insideCurve("ITIC", 0.7, 0.5), true);
  assert.equal(insideCurve("ITIC", 0.75, 0.5), true);
  assert.equal(insideCurve("ITIC", 0.75, 0.51), false);
  assert.equal(insideCurve("ITIC", 0.8, 10), true);
  assert.equal(insideCurve("ITIC", 0.85, 11), false);
  assert.equal(insideCurve("ITIC", 0.9, 1000), true);
});

Deno.test("insideCurve() ITIC upper curve: log-linear between its points", () => {
  assert.equal(insideCurve("ITIC", 1.15, 0.4), true);
  assert.equal(insideCurve("ITIC", 1.15, 0.6), false);
  assert.equal(insideCurve("ITIC", 1.2, 0.5), true);
  assert.equal(insideCurve("ITIC", 1.4, 0.003), true);
  assert.equal(insideCurve("ITIC", 1.41, 0.003), false);
  // Halfway (in log time) between 1 ms (2 pu) and 3 ms (1.4 pu): 1.7 pu.
  const mid = Math.sqrt(0.001 * 0.003);
  assert.equal(insideCurve("ITIC", 1.69, mid), true);
  assert.equal(insideCurve("ITIC", 1.71, mid), false);
});

Deno.test("insideCurve() SEMI F47: dips only, 0.5/0.7/0.8 pu steps", () => {
  assert.equal(insideCurve("SEMI_F47", 0.3, 0.04), true);
  assert.equal(insideCurve("SEMI_F47", 0.49, 0.1), false);
  assert.equal(insideCurve("SEMI_F47", 0.5, 0.2), true);
  assert.equal(insideCurve("SEMI_F47", 0.6, 0.3), false);
  assert.equal(insideCurve("SEMI_F47", 0.75, 0.5), true);
  assert.equal(insideCurve("SEMI_F47", 0.75, 0.8), false);
  assert.equal(insideCurve("SEMI_F47", 0.79, 5), false);
  assert.equal(insideCurve("SEMI_F47", 1.5, 5), true);
});

Deno.test("filterProblems() names the field of each inverted range", () => {
  assert.deepEqual(filterProblems({}), []);
  assert.deepEqual(
    filterProblems({
      from: "2026-11-20T10:00:00Z",
      to: "2026-11-20T10:00:00Z",
      depth_min: 5,
      depth_max: 4,
      duration_min_ms: 10,
      duration_max_ms: 9,
    }).map((p) => `${p.path}:${p.key}`),
    [
      "to:validation.endBeforeStart",
      "depth_max:validation.maxBelowMin",
      "duration_max_ms:validation.maxBelowMin",
    ],
  );
  const parsed = eventListQuery.safeParse({ depth_min: "10", depth_max: "5" });
  assert.equal(parsed.success, false);
  assert.equal(parsed.error?.issues[0]?.message, "validation.maxBelowMin");
  assert.equal(eventListQuery.safeParse({ page: "0" }).success, false);
  assert.equal(eventListQuery.safeParse({ type: "DIP", page: "3" }).success, true);
});

Deno.test("eventKey() round-trips any ids and parseEventKey() refuses junk", () => {
  for (const [cell, id] of [["CGW1", "evt-1"], ["c", "ü/é?&=+"], ["a b", "x".repeat(100)]]) {
    assert.deepEqual(parseEventKey(eventKey(cell!, id!)), { cellId: cell, eventId: id });
  }
  assert.equal(parseEventKey("not a key"), null);
  assert.equal(parseEventKey(""), null);
  assert.equal(parseEventKey(eventKey("only", "x").slice(0, 3)), null);
});

Deno.test("tableCellOf() and typeOfKind() read the stored classification", () => {
  assert.deepEqual(tableCellOf("70-40/0.2-0.5s"), {
    table: "DIP",
    row: "70-40",
    column: "0.2-0.5s",
  });
  assert.deepEqual(tableCellOf(">=120/10-500ms"), {
    table: "SWELL",
    row: ">=120",
    column: "10-500ms",
  });
  assert.equal(tableCellOf(null), null);
  assert.equal(tableCellOf("bogus"), null);
  assert.equal(typeOfKind("INTERRUPTION_LONG"), "INTERRUPTION");
  assert.equal(typeOfKind("DIP"), "DIP");
});
