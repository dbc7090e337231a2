import assert from "node:assert/strict";
import { percentile, perSecond, summarize } from "./stats.ts";
import { markdownTable, ratioOf, resultTable, verdict } from "./report.ts";
import { comparisons } from "./compare.ts";
import { realTimeFactor } from "./options.ts";

Deno.test("percentile() interpolates between the nearest ranks", () => {
  assert.equal(percentile([5, 1, 3], 50), 3);
  assert.equal(percentile([1, 2, 3, 4], 50), 2.5);
  assert.equal(percentile([1, 2, 3, 4], 100), 4);
  assert.ok(Number.isNaN(percentile([], 50)));
});

Deno.test("summarize() gives p99 close to the maximum for a long tail", () => {
  const samples = [...Array.from({ length: 99 }, () => 1), 100];
  const s = summarize(samples);
  assert.equal(s.p50, 1);
  assert.ok(s.p99 > 1 && s.p99 <= 100);
  assert.equal(s.max, 100);
  assert.equal(perSecond(500, 250), 2000);
});

Deno.test("realTimeFactor() is 1 when 5,000 cells' rows arrive exactly every 20 s", () => {
  assert.equal(realTimeFactor(5_000 * 24 / 20, 5_000), 1);
});

Deno.test("resultTable() prints ratios to the calibration and the verdict of each target", () => {
  const calibration = { engineRowsPerSec: 1_000_000, scanBytesPerSec: 4e9 };
  const rows = [
    {
      name: "ingest",
      value: 200_000,
      unit: "rows/s",
      basis: { kind: "engine" as const, rowsPerSec: 200_000 },
      target: { text: ">= 0.1 x", met: (_v: number, r: number | null) => (r ?? 0) >= 0.1 },
    },
    {
      name: "close",
      value: 300,
      unit: "ms",
      target: { text: "<= 100", met: (v: number) => v <= 100 },
      scaled: true,
    },
  ];
  assert.equal(ratioOf(rows[0]!, calibration), 0.2);
  assert.equal(verdict(rows[0]!, 0.2), "yes");
  assert.equal(verdict(rows[1]!, null), "no*");
  const table = resultTable(rows, calibration).split("\n");
  assert.equal(table.length, 4);
  assert.match(table[2]!, /\| ingest .*200,000 .*0\.200 x engine .*yes/);
  assert.match(table[3]!, /no\*/);
});

Deno.test("markdownTable() pads every cell of a column to the same width", () => {
  const lines = markdownTable(["a", "b"], [["long cell", "1"]], [false, true]).split("\n");
  assert.deepEqual(lines.map((l) => l.length), [
    lines[0]!.length,
    lines[0]!.length,
    lines[0]!.length,
  ]);
});

Deno.test("comparisons() divides product by PostgreSQL rates and normalises times per row", () => {
  const rows = comparisons([
    { name: "a", value: 100, unit: "rows/s", key: "ingest.single" },
    { name: "b", value: 50, unit: "rows/s", key: "pg.single" },
    { name: "c", value: 10, unit: "ms", key: "aggregation.close", rows: 1000 },
    { name: "d", value: 10, unit: "ms", key: "pg.aggregate", rows: 500 },
  ]);
  assert.deepEqual(rows.map((r) => r.value), [2, 2]);
  assert.equal(rows[0]!.target?.met(2, null), false);
});
