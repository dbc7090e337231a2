import assert from "node:assert/strict";
import { row, T0, withStore } from "./_store_fixtures.ts";
import { Aggregator, SLOT_GRACE_MS } from "./aggregate.ts";
import { RECENT_MARKS_MS, SeriesIndex } from "./series_index.ts";
import { MeasurementStore, SLOT_MS } from "./store.ts";

const HOUR = 3_600_000;

Deno.test("SeriesIndex.load() reads the newest hour's watermarks; resolveMarks() finds the others, exactly", async () => {
  await withStore(async (store, agg, q, _reader, { writer }) => {
    // C1 streams; C2 went silent three hours before; C3's rows are past their lifetime.
    await store.append("C1", { measurements: [row(T0 + 3 * HOUR, 230)] });
    await store.append("C2", {
      measurements: [row(T0, 230), row(T0 + 20_000, 231), row(T0 + 40_000, 232)],
    });
    await store.append("C3", { measurements: [row(T0 - HOUR, 230)] });
    await agg.flush(T0 + SLOT_MS + SLOT_GRACE_MS);
    await q("DELETE FROM raw_measurements WHERE ts < make_timestamp(" + T0 * 1000 + ")");
    const [c1, c2, c3] = ["C1", "C2", "C3"].map((cell) => store.seriesId(cell, 1, 0)!) as [
      number,
      number,
      number,
    ];

    const index = new SeriesIndex();
    await index.load(writer);
    assert.equal(index.unknownMarks, 2, "C2 and C3 have no row in the newest hour");
    assert.equal(index.watermark(c1), T0 + 3 * HOUR);
    assert.equal(index.watermark(c2), Infinity, "unknown: every row of C2 may be stored");
    // A new row of C2 is looked up, and its slot is recomputed (its mark before: unknown).
    const [late] = index.prepare([{
      cellId: "C2",
      batch: { measurements: [row(T0 + 60_000, 233)] },
    }], []);
    assert.ok(index.needsLookup(late!));
    const accepted = { cellId: "C2", ids: [c2], rows: [...late!.rows], pq: { ids: [], rows: [] } };
    const previous = index.remember([{ ...accepted, events: [], io: [] }]);
    assert.equal(previous.get(c2), Infinity);

    // Chunks of 10 minutes, newest first, back from the loaded hour: C2 is found 2 h back.
    const chunks: number[] = [];
    await index.resolveMarks(writer, (fn) => {
      chunks.push(chunks.length);
      return fn();
    }, 10 * 60_000);
    assert.equal(index.unknownMarks, 0);
    assert.equal(index.watermark(c2), T0 + 60_000, "the row stored since the load is newer");
    assert.equal(index.watermark(c3), undefined, "no stored row");
    // The oldest row, then 10-minute chunks back from the loaded hour to it (C3 is never found).
    assert.equal(chunks.length, 1 + Math.ceil((3 * HOUR - RECENT_MARKS_MS) / 600_000));
  });
});

Deno.test("MeasurementStore.open() on a silent series: its retried row is a duplicate, its backfill is aggregated exactly", async () => {
  await withStore(async (store, agg, q, _reader, { writer, aggregation }) => {
    await store.append("C1", { measurements: [row(T0 + 3 * HOUR, 230)] });
    await store.append("C2", { measurements: [row(T0, 230), row(T0 + 40_000, 232)] });
    await agg.flush(T0 + SLOT_MS + SLOT_GRACE_MS);
    store.close();

    const again = await MeasurementStore.open(writer);
    const fresh = new Aggregator(aggregation);
    again.onSlotsTouched((slots) => fresh.markDirty(slots));
    const retried = await again.append("C2", { measurements: [row(T0, 230)] });
    assert.deepEqual([retried.accepted, retried.duplicates], [0, 1]);
    const backfill = await again.append("C2", { measurements: [row(T0 + 20_000, 231)] });
    assert.equal(backfill.accepted, 1);
    await again.flush();
    await fresh.flush(T0 + 4 * HOUR);
    assert.deepEqual(
      await q(
        `SELECT n::INT, u_min, u_max FROM agg_10min WHERE slot = make_timestamp(${T0 * 1000})`,
      ),
      [[3, 230, 232]],
    );
    again.close();
  });
});
