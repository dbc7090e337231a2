/**
 * `npx deno bench core/simulator`: the backfill fast path against the object path. The demo
 * backfill (14 days x 30 cells, 14.5 million rows) is 14 times the first benchmark.
 */
import { utilityCells } from "./_test_cells.ts";
import { allocateColumns, rowsPerWindow } from "./columns.ts";
import { generateBatch, generateColumns } from "./generate.ts";
import { WINDOW_MS } from "./protocol.ts";

const cells = utilityCells();
const columns = allocateColumns(rowsPerWindow(cells));
const FROM = Date.UTC(2026, 0, 5);
const WINDOWS_PER_DAY = 4320;

Deno.bench(
  "generateColumns(): one day of 30 cells (1.04 million rows)",
  { n: 3, warmup: 1 },
  () => {
    for (let w = 0; w < WINDOWS_PER_DAY; w++) {
      generateColumns(
        cells,
        FROM + w * WINDOW_MS,
        42,
        columns,
      );
    }
  },
);

Deno.bench("generateBatch(): one hour of 30 cells as JSON", { n: 3, warmup: 1 }, () => {
  for (let w = 0; w < 180; w++) {
    for (const cell of cells) JSON.stringify(generateBatch(cell, FROM + w * WINDOW_MS, 42));
  }
});
