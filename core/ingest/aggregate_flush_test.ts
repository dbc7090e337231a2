import assert from "node:assert/strict";
import { dip, row, T0, withStore } from "./_store_fixtures.ts";
import { aggregateSql, Aggregator, RECLOSE_MS, SLOT_GRACE_MS } from "./aggregate.ts";
import { SLOT_MS } from "./store.ts";

Deno.test("Aggregator.flush() writes the RMS, min, max and count of a closed UTC slot only", async () => {
  await withStore(async (store, agg, q) => {
    const values = [220, 230, 240];
    await store.append("C1", { measurements: values.map((u, k) => row(T0 + k * 20_000, u)) });
    await store.append("C1", { measurements: [row(T0 + SLOT_MS, 231)] }); // next slot, still open below
    const now = T0 + SLOT_MS + SLOT_GRACE_MS;
    assert.equal(await agg.flush(now), 1);
    const [[slot, n, rms, min, max, flagged]] = await q(
      "SELECT epoch_ms(slot), n::INT, u_rms, u_min, u_max, flagged FROM agg_10min",
    ) as [[bigint, number, number, number, number, boolean]];
    assert.equal(Number(slot), T0);
    assert.equal(n, 3);
    assert.ok(Math.abs(rms - Math.sqrt((220 ** 2 + 230 ** 2 + 240 ** 2) / 3)) < 1e-3);
    assert.deepEqual([min, max, flagged], [220, 240, false]);
    assert.equal(agg.pending, 1, "the open slot waits");
  });
});

Deno.test("Aggregator.flush() that fails rejects its caller only and is retried from the raw data", async () => {
  await withStore(async (store, agg, q) => {
    await store.append("C1", { measurements: [row(T0, 230), row(T0 + 20_000, 232)] });
    const now = T0 + SLOT_MS + SLOT_GRACE_MS;
    await q("ALTER TABLE agg_10min RENAME TO agg_away"); // the write fails, as on a full disk
    await assert.rejects(agg.flush(now)); // no unhandled rejection: Deno would fail the test
    await q("ALTER TABLE agg_away RENAME TO agg_10min");
    assert.equal(await agg.flush(now), 1);
    assert.deepEqual(await q("SELECT n::INT FROM agg_10min"), [[2]]);
  });
});

Deno.test("Aggregator.flush() recomputes only the slot that late data touched, and leaves gaps empty", async () => {
  await withStore(async (store, agg, q) => {
    await store.append("C1", { measurements: [row(T0, 230), row(T0 + 2 * SLOT_MS, 230)] }); // slot 1 missing: a gap
    await agg.flush(T0 + 4 * SLOT_MS);
    assert.deepEqual(await q("SELECT count(*)::INT FROM agg_10min"), [[2]]);
    await store.append("C1", { measurements: [row(T0 + 20_000, 240)] });
    assert.equal(await agg.flush(T0 + 4 * SLOT_MS), 1);
    const rows = await q("SELECT epoch_ms(slot), n::INT FROM agg_10min ORDER BY slot");
    assert.deepEqual(rows.map(([s, n]) => [Number(s), n]), [[T0, 2], [T0 + 2 * SLOT_MS, 1]]);
  });
});

Deno.test("Aggregator.flush() rewrites a slot for late data of many series at most once a minute", async () => {
  await withStore(async (store, agg, q) => {
    // 2,100 series (700 cells x 3 phases), more than one rewrite lists by id.
    const cells = Array.from({ length: 700 }, (_, k) => `C${k}`);
    const send = (ts: number, u: number) =>
      Promise.all(
        cells.map((cell) =>
          store.append(cell, { measurements: [0, 1, 2].map((phase) => row(ts, u, phase)) })
        ),
      );
    await send(T0, 230);
    const closedAt = T0 + SLOT_MS + SLOT_GRACE_MS;
    assert.equal(await agg.flush(closedAt), 1);
    await send(T0 + 20_000, 240); // late rows of every series
    assert.equal(await agg.flush(closedAt + 10_000), 0, "waits for the minute");
    await store.append("C0", { measurements: [row(T0 + 40_000, 250)] });
    assert.equal(await agg.flush(closedAt + RECLOSE_MS), 1);
    assert.deepEqual(
      await q("SELECT count(*)::INT, sum(n)::INT FROM agg_10min"),
      [[2_100, 2_100 * 2 + 1]],
    );
    await store.append("C1", { measurements: [row(T0 + 60_000, 250)] });
    assert.equal(await agg.flush(closedAt + RECLOSE_MS + 1), 1, "a few series go at once");
  });
});

Deno.test("Aggregator.flush() flags a slot overlapped by a voltage event of the cell", async () => {
  await withStore(async (store, agg, q) => {
    await store.append("C1", { measurements: [row(T0, 230), row(T0 + SLOT_MS, 230)] });
    await q(
      `INSERT INTO voltage_events (cell_id, event_id, type, start_ts, end_ts, start_phase, end_phase, extreme_pct, delta_u_pct, rms_trace) VALUES ('C1', 'e1', 'DIP', make_timestamp(${
        (T0 + SLOT_MS + 5000) * 1000
      }),
      make_timestamp(${(T0 + SLOT_MS + 5300) * 1000}), 'L1', 'L1', 70, NULL, NULL)`,
    );
    await agg.flush(T0 + 3 * SLOT_MS);
    const rows = await q("SELECT epoch_ms(slot), flagged FROM agg_10min ORDER BY slot");
    assert.deepEqual(rows.map(([s, f]) => [Number(s), f]), [[T0, false], [T0 + SLOT_MS, true]]);
  });
});

Deno.test("Aggregator.flush() counts each value once when two voltage events overlap its slot", async () => {
  await withStore(async (store, agg, q) => {
    await store.append("C1", {
      measurements: [row(T0, 230), row(T0 + 20_000, 232)],
      events: [dip("a", T0 + 1000), dip("b", T0 + 5000)],
    });
    await agg.flush(T0 + 2 * SLOT_MS);
    assert.deepEqual(await q("SELECT n::INT, u_min, u_max, flagged FROM agg_10min"), [[
      2,
      230,
      232,
      true,
    ]]);
    agg.markDirty([T0]); // the SQL recomputation agrees
    await agg.flush(T0 + 2 * SLOT_MS);
    assert.deepEqual(await q("SELECT n::INT, flagged FROM agg_10min"), [[2, true]]);
  });
});

Deno.test("Aggregator.recover() finds slots whose aggregate misses rows after a restart", async () => {
  await withStore(async (store, agg, q) => {
    await store.append("C1", { measurements: [row(T0, 230), row(T0 + SLOT_MS, 231)] });
    await agg.flush(T0 + 3 * SLOT_MS);
    await store.append("C1", { measurements: [row(T0 + 20_000, 240)] });
    const fresh = new Aggregator((agg as unknown as { connection: never }).connection);
    assert.equal(await fresh.recover(2, T0 + 3 * SLOT_MS), 1);
    assert.equal(await fresh.flush(T0 + 3 * SLOT_MS), 1);
    assert.deepEqual(await q("SELECT n::INT FROM agg_10min ORDER BY slot"), [[2], [1]]);
  });
});

Deno.test("Aggregator.recover() compares slots by their totals: a series missing, raw rows past their lifetime", async () => {
  await withStore(async (store, agg, q) => {
    for (const cell of ["C1", "C2"]) {
      await store.append(cell, {
        measurements: [row(T0, 230), row(T0 + SLOT_MS, 231), row(T0 + 2 * SLOT_MS, 232)],
      });
    }
    await agg.flush(T0 + 4 * SLOT_MS);
    const fresh = () => new Aggregator((agg as unknown as { connection: never }).connection);
    assert.equal(await fresh().recover(2, T0 + 4 * SLOT_MS), 0, "every slot aggregated");
    // Slot 1: C2's aggregate lost (as if it had never been written), C1's right.
    const c2 = "(SELECT series_id FROM series WHERE cell_id = 'C2')";
    await q(`DELETE FROM agg_10min WHERE slot = make_timestamp(${(T0 + SLOT_MS) * 1000})
      AND series_id IN ${c2}`);
    // Slot 2: C1's raw rows gone past their lifetime; its aggregate stays.
    await q(`DELETE FROM raw_measurements WHERE ts = make_timestamp(${(T0 + 2 * SLOT_MS) * 1000})
      AND series_id NOT IN ${c2}`);
    const recovering = fresh();
    assert.equal(await recovering.recover(2, T0 + 4 * SLOT_MS), 1);
    assert.equal(await recovering.flush(T0 + 4 * SLOT_MS), 1);
    assert.deepEqual(
      await q(
        "SELECT epoch_ms(slot) - " + T0 + ", count(*)::INT FROM agg_10min GROUP BY ALL ORDER BY 1",
      ),
      [[0n, 2], [BigInt(SLOT_MS), 2], [BigInt(2 * SLOT_MS), 2]],
    );
  });
});

Deno.test("Aggregator.flush() rolls 10-minute slots up to hours and days weighted by their values", async () => {
  await withStore(async (store, agg, q) => {
    // Slot 0: three values at 230 V; slot 1: one value at 250 V; the next hour: one at 240 V.
    await store.append("C1", {
      measurements: [
        row(T0, 230),
        row(T0 + 20_000, 230),
        row(T0 + 40_000, 230),
        row(T0 + SLOT_MS, 250),
        row(T0 + 6 * SLOT_MS, 240),
      ],
    });
    await agg.flush(T0 + 8 * SLOT_MS);
    const hours = await q(
      "SELECT epoch_ms(slot), n::INT, u_rms, u_min, u_max FROM agg_1h ORDER BY slot",
    ) as [
      bigint,
      number,
      number,
      number,
      number,
    ][];
    assert.deepEqual(hours.map(([s, n]) => [Number(s), n]), [[T0, 4], [T0 + 3_600_000, 1]]);
    assert.ok(Math.abs(hours[0]![2] - Math.sqrt((3 * 230 ** 2 + 250 ** 2) / 4)) < 1e-3);
    assert.deepEqual([hours[0]![3], hours[0]![4]], [230, 250]);
    assert.deepEqual(await q("SELECT epoch_ms(slot)::BIGINT, n::INT FROM agg_1d"), [[
      BigInt(T0),
      5,
    ]]);
    // The day (rolled up from its hours) is the RMS of all five 20-s values.
    const [[dayRms]] = await q("SELECT u_rms FROM agg_1d") as [[number]];
    assert.ok(Math.abs(dayRms - Math.sqrt((3 * 230 ** 2 + 250 ** 2 + 240 ** 2) / 5)) < 1e-3);
  });
});

Deno.test("Aggregator.flush() writes a backlog of days in batches: every slot once, flags where events overlap, the SQL's values", async () => {
  await withStore(async (store, agg, q) => {
    // 300 slots (more than one batch of first closes), one row each for two cells.
    const slots = 300;
    for (const cell of ["C1", "C2"]) {
      await store.append(cell, {
        measurements: Array.from({ length: slots }, (_, k) => row(T0 + k * SLOT_MS, 220 + k % 20)),
      });
    }
    // An event of C1 across the boundary of slots 149 and 150 (two batches' edge), and one
    // ending exactly at the start of slot 200 (it still overlaps it, as in the SQL).
    const event = (id: string, start: number, end: number) =>
      q(`INSERT INTO voltage_events (cell_id, event_id, type, start_ts, end_ts, start_phase,
          end_phase, extreme_pct, delta_u_pct, rms_trace) VALUES ('C1', '${id}', 'DIP',
          make_timestamp(${start * 1000}), make_timestamp(${end * 1000}), 'L1', 'L1', 70, NULL,
          NULL)`);
    await event("e1", T0 + 150 * SLOT_MS - 100, T0 + 150 * SLOT_MS + 100);
    await event("e2", T0 + 200 * SLOT_MS - 300, T0 + 200 * SLOT_MS);
    assert.equal(await agg.flush(T0 + (slots + 1) * SLOT_MS + SLOT_GRACE_MS), slots);
    const flagged = await q(
      `SELECT s.cell_id, (epoch_ms(a.slot) - ${T0}) // ${SLOT_MS} FROM agg_10min a
       JOIN series s USING (series_id) WHERE a.flagged ORDER BY 1, 2`,
    );
    assert.deepEqual(flagged.map(([c, k]) => [c, Number(k)]), [
      ["C1", 149],
      ["C1", 150],
      ["C1", 199],
      ["C1", 200],
    ]);
    // The same rows as the SQL recomputation of those slots.
    const incremental = await q("SELECT * FROM agg_10min ORDER BY series_id, slot");
    assert.equal(incremental.length, 2 * slots);
    await q("DELETE FROM agg_10min");
    for (
      const statement of aggregateSql(Array.from({ length: slots }, (_, k) => T0 + k * SLOT_MS))
    ) {
      await q(statement);
    }
    assert.deepEqual(await q("SELECT * FROM agg_10min ORDER BY series_id, slot"), incremental);
  });
});

Deno.test("Aggregator.flush() keeps the hourly harmonic counts of unflagged slots, and rolls an hour up again when a slot gets flagged", async () => {
  await withStore(async (store, agg, q) => {
    store.onPqChanged((changes) => agg.markPqChanged(changes));
    // A protocol v1 row whose every harmonic is 5 %, folded into the slot's record.
    const pq = { unbalance: 0.5, pst: 0.4, plt: 0.3, h: new Float32Array(24).fill(5) };
    await store.append("C1", { measurements: [{ ...row(T0, 230), pq }] });
    await store.writeFolds(T0 + SLOT_MS + SLOT_GRACE_MS);
    await agg.flush(T0 + 2 * SLOT_MS);
    // The hourly counts, and the daily ones (their sums).
    const counts = () =>
      q(`SELECT n::INT, n_flagged::INT, h2_n::INT, h2_over::INT, h5_n::INT, h5_over::INT
         FROM pq_1h UNION ALL SELECT n, n_flagged, h2_n, h2_over, h5_n, h5_over FROM pq_1d`);
    // 5 % is above h2's 2 % and on h3's 5 % (inside), under h5's 6 %.
    assert.deepEqual(await counts(), [[1, 0, 1, 1, 1, 0], [1, 0, 1, 1, 1, 0]]);
    assert.deepEqual(await q("SELECT h3_over::INT FROM pq_1h"), [[0]], "on its limit: inside");
    await store.append("C1", { measurements: [], events: [dip("e1", T0 + 60_000)] });
    await agg.flush(T0 + 2 * SLOT_MS + 1);
    assert.deepEqual(await q("SELECT flagged FROM agg_10min"), [[true]]);
    assert.deepEqual(await counts(), [[1, 1, 0, 0, 0, 0], [1, 1, 0, 0, 0, 0]], "flagged: left out");
  });
});
