import assert from "node:assert/strict";
import { row, T0, withStore } from "./_store_fixtures.ts";
import { aggregateSql, SLOT_GRACE_MS } from "./aggregate.ts";
import { STAGE_ROWS } from "./aggregate_stage.ts";
import { appendColumns } from "./chunk_writer.ts";
import { SlotAccumulator } from "./slot_accumulator.ts";
import { SLOT_MS } from "./store.ts";
import type { MeasurementRow } from "./validate.ts";

const CELLS = 1_400;
const FEEDERS = 6;
const WINDOWS = 3;

/** Rows of one cell: every feeder and phase, WINDOWS windows, NULLs and extremes mixed in. */
function cellRows(cell: number): MeasurementRow[] {
  const rows: MeasurementRow[] = [];
  for (let feeder = 1; feeder <= FEEDERS; feeder++) {
    for (let phase = 0; phase < 4; phase++) {
      for (let w = 0; w < WINDOWS; w++) {
        const k = cell * 7 + feeder * 13 + phase * 5 + w;
        const r = row(T0 + w * 20_000, phase === 3 ? NaN : 200 + (k % 61) + w / 3, phase, feeder);
        r.i = k % 11 === 0 ? NaN : (k % 400) / 3;
        r.values = {
          p: k % 5 === 0 ? NaN : (k % 200) - 100.25,
          q: (k % 97) / 7,
          pf: k % 3 === 0 ? NaN : ((k % 200) - 100) / 100,
          thd_u: (k % 9) / 2,
          thd_i: k % 13 === 0 ? NaN : (k % 40) / 3,
          f: 49.9 + (k % 20) / 100,
        };
        rows.push(r);
      }
    }
  }
  return rows;
}

Deno.test("Aggregator: a close written in several slices writes agg_10min byte for byte as one appender of all rows and the SQL recomputation", async () => {
  await withStore(async (store, agg, q, reader) => {
    const byCell = Array.from({ length: CELLS }, (_, cell) => cellRows(cell));
    await Promise.all(
      byCell.map((measurements, cell) => store.append(`C${cell}`, { measurements })),
    );
    // A voltage event of C3 overlapping the slot: its series are flagged.
    await q(`INSERT INTO voltage_events (cell_id, event_id, type, start_ts, end_ts)
      VALUES ('C3', 'e1', 'DIP', make_timestamp(${(T0 + 30_000) * 1000}),
        make_timestamp(${(T0 + 31_000) * 1000}))`);
    const series = CELLS * FEEDERS * 4;
    assert.ok(series > 2 * STAGE_ROWS, "the write takes several slices");
    assert.equal(await agg.flush(T0 + SLOT_MS + SLOT_GRACE_MS), 1);
    const parts = agg.lastFlush.parts!;
    assert.ok(parts.loopMs >= parts.longestMs && parts.longestMs > 0, JSON.stringify(parts));
    const read = () => q("SELECT * FROM agg_10min ORDER BY series_id");
    const closed = await read();
    assert.equal(closed.length, series);
    assert.equal(closed.filter((r) => r.at(-1) === true).length, FEEDERS * 4, "C3 flagged");

    // The same sums appended by one appender, in one piece.
    const ids = new Map(
      (await q("SELECT cell_id, feeder, phase, series_id FROM series")).map((
        [cell, feeder, phase, id],
      ) => [`${cell}|${feeder}|${phase}`, id as number]),
    );
    const acc = new SlotAccumulator();
    byCell.forEach((rows, cell) => {
      for (const r of rows) acc.add(ids.get(`C${cell}|${r.feeder}|${r.phase}`)!, r);
    });
    const flagged = new Set(
      [...ids].filter(([key]) => key.startsWith("C3|")).map(([, id]) => id),
    );
    await q("DELETE FROM agg_10min");
    const columns = acc.columns(T0, (id) => flagged.has(id));
    const appender = await reader.createAppender("agg_10min");
    appendColumns(appender, columns, columns[0]!.data.length);
    appender.closeSync();
    assert.deepEqual(await read(), closed, "one appender");

    // The reference: the slot recomputed from the raw rows in SQL.
    await q("DELETE FROM agg_10min");
    for (const statement of aggregateSql([T0])) await q(statement);
    assert.deepEqual(await read(), closed, "SQL recomputation");
  });
});
