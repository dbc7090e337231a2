/**
 * The local limit of our schema: core's chunk writer (`appendRows`) feeding the DuckDB
 * appender of `raw_measurements` in a file-backed database, one transaction per tick of
 * 5,000 cells (120k rows), as a group commit of every cell's batch would write it. Also the
 * 10-minute PQ records of those cells (6 feeders x L1..L3 each, 90k records) written as the
 * store writes the records it holds (staged, then one transaction), here all of a slot at once.
 */
import { appendRows } from "../../core/ingest/chunk_writer.ts";
import { DDL } from "../../core/ingest/schema.ts";
import { PqFolds } from "../../core/ingest/store_pq.ts";
import type { PqRow } from "../../core/ingest/validate_pq.ts";
import type { MeasurementRow } from "../../core/ingest/validate.ts";
import { allocateColumns, generateColumns, WINDOW_MS } from "../../core/simulator/mod.ts";
import { openTimeSeriesStore } from "../../core/mod.ts";
import { platformMemoryLimit } from "./lib/duck.ts";
import type { Sizes } from "./lib/options.ts";
import { atMost, type Result } from "./lib/report.ts";
import { perSecond, summarize } from "./lib/stats.ts";
import { collect, timeOnce } from "./lib/timing.ts";
import { FIXED_START, lvgridCell, rowsByCell, SEED } from "./lib/workload.ts";

/** Rows of one tick of `cells` with their series ids (cell x 24 + feeder x 4 + probe). */
function tickRows(cells: ReturnType<typeof lvgridCell>[], window: number) {
  const cols = allocateColumns(cells.length * 24);
  const count = generateColumns(cells, FIXED_START + window * WINDOW_MS, SEED, cols);
  const rows: MeasurementRow[] = [];
  const ids: number[] = [];
  for (const [cell, list] of rowsByCell(cols, count)) {
    for (const row of list) {
      rows.push(row);
      ids.push(cell * 24 + (row.feeder - 1) * 4 + row.phase + 1);
    }
  }
  return { rows, ids, indexes: rows.map((_, k) => k) };
}

/** Appends `sizes.appenderTicks` ticks and reports rows/s and the commit time per tick. */
export async function benchAppender(dir: string, sizes: Sizes): Promise<Result[]> {
  const store = await openTimeSeriesStore(`${dir}/appender`, platformMemoryLimit());
  const c = store.connection;
  try {
    for (const statement of DDL) await c.run(statement);
    const cells = Array.from({ length: sizes.appenderTickRows / 24 }, (_, k) => lvgridCell(k));
    const samples = await collect(async (run) => {
      const tick = tickRows(cells, run + 1);
      return await timeOnce(async () => {
        await c.run("BEGIN TRANSACTION");
        const appender = await c.createAppender("raw_measurements");
        appendRows(appender, tick.ids, tick.rows, tick.indexes);
        appender.flushSync();
        appender.closeSync();
        await c.run("COMMIT");
      });
    }, { warmup: 1, repeats: sizes.appenderTicks });
    const total = samples.reduce((a, b) => a + b, 0);
    const rate = perSecond(sizes.appenderTickRows * sizes.appenderTicks, total);
    const records = (sizes.appenderTickRows / 24) * 18;
    const pqSamples = await collect(async (run) => {
      const slot = FIXED_START + (run + 1) * 600_000;
      const rows: PqRow[] = Array.from({ length: records }, (_, k) => ({
        slot,
        feeder: 1 + Math.floor((k % 18) / 3),
        phase: k % 3,
        unbalance: (k % 97) / 100,
        pst: (k % 53) / 100,
        plt: (k % 41) / 100,
        h: Float32Array.from({ length: 24 }, (_, h) => ((k + h) % 300) / 100),
      }));
      const ids = rows.map((_, k) => Math.floor(k / 18) * 24 + (k % 18) + 1);
      const held = new PqFolds();
      held.addDevices(ids, rows, null);
      return await timeOnce(() => held.write(c, -Infinity, null));
    }, { warmup: 1, repeats: Math.max(2, Math.floor(sizes.appenderTicks / 4)) });
    return [
      {
        name: "DuckDB appender via core chunk writer, raw_measurements on disk",
        value: rate,
        unit: "rows/s",
        basis: { kind: "engine", rowsPerSec: rate },
      },
      {
        name: `Storage floor: one tick of ${sizes.appenderTickRows / 24} cells in one commit, p99`,
        value: summarize(samples).p99,
        unit: "ms",
        target: atMost(250, "<= 250 ms (tick commit)"),
      },
      {
        name: `  PQ records of a slot: ${records / 1000}k records in one write, p50`,
        value: summarize(pqSamples).p50,
        unit: "ms",
      },
    ];
  } finally {
    await store.close();
  }
}
