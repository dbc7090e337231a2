import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { row, T0, withStore } from "./_store_fixtures.ts";
import { SLOT_GRACE_MS } from "./aggregate.ts";
import { Journal } from "./journal.ts";
import { MeasurementStore, SLOT_MS } from "./store.ts";
import type { MeasurementRow } from "./validate.ts";
import { releaseNativeHandles } from "../time_series_store.ts";

Deno.test("MeasurementStore.append() stores a retried batch once (idempotent on cell, feeder, phase, time)", async () => {
  await withStore(async (store, _agg, q) => {
    const rows = [row(T0, 230), row(T0 + 20_000, 231), row(T0, 229, 1)];
    assert.deepEqual(await store.append("C1", { measurements: rows }), {
      accepted: 3,
      duplicates: 0,
    });
    assert.deepEqual(await store.append("C1", { measurements: rows }), {
      accepted: 0,
      duplicates: 3,
    });
    assert.deepEqual(await store.append("C2", { measurements: rows }), {
      accepted: 3,
      duplicates: 0,
    });
    assert.deepEqual(await q("SELECT count(*)::INT FROM raw_measurements"), [[6]]);
  });
});

Deno.test("MeasurementStore.append() stores late data below the watermark but not its duplicates", async () => {
  await withStore(async (store, _agg, q) => {
    await store.append("C1", { measurements: [row(T0 + 60_000, 230)] });
    assert.deepEqual(
      await store.append("C1", { measurements: [row(T0, 228), row(T0 + 60_000, 230)] }),
      {
        accepted: 1,
        duplicates: 1,
      },
    );
    assert.deepEqual(await q("SELECT count(*)::INT FROM raw_measurements"), [[2]]);
  });
});

Deno.test("MeasurementStore.append() concurrent batches of many cells all land exactly once", async () => {
  await withStore(async (store, _agg, q) => {
    const batches = Array.from(
      { length: 20 },
      (_, c) => store.append(`C${c}`, { measurements: [row(T0, 230), row(T0 + 20_000, 231)] }),
    );
    const results = await Promise.all(batches);
    assert.equal(results.reduce((s, r) => s + r.accepted, 0), 40);
    assert.deepEqual(
      await q("SELECT count(DISTINCT series_id)::INT, count(*)::INT FROM raw_measurements"),
      [[20, 40]],
    );
  });
});

Deno.test("MeasurementStore.append() commits concurrent batches in shared groups, each answered after its commit", async () => {
  await withStore(async (store, _agg, q) => {
    let groups = 0;
    store.onSlotsTouched(() => groups++);
    const first = store.append("C0", { measurements: [row(T0, 230)] });
    // Arrive while the first group commits: they share the next transaction.
    const rest = Array.from(
      { length: 30 },
      (_, c) => store.append(`C${c + 1}`, { measurements: [row(T0, 230), row(T0, 231, 1)] }),
    );
    // The same cell again (a retry racing its first attempt) waits for a later group.
    const retry = store.append("C1", { measurements: [row(T0, 230), row(T0, 231, 1)] });
    await first;
    assert.deepEqual(await q("SELECT count(*)::INT FROM raw_measurements"), [[1]]);
    const results = await Promise.all(rest);
    assert.ok(results.every((r) => r.accepted === 2));
    assert.deepEqual(await retry, { accepted: 0, duplicates: 2 });
    assert.equal(groups, 2, "the first batch, then the 30 that waited (the retry stored nothing)");
    assert.deepEqual(await q("SELECT count(*)::INT FROM raw_measurements"), [[61]]);
  });
});

Deno.test("MeasurementStore.append() answers every batch of a failing group with the error and stores none of them", async () => {
  await withStore(async (store, _agg, q) => {
    await store.append("C0", { measurements: [row(T0, 230)] });
    // The next group carries I/O states: its insert fails. Dropped before the blocker's write
    // starts (dropped while it ran, a loaded machine could end that write first and give C1 a
    // group of its own), which writes no I/O states and so still succeeds.
    await q("DROP TABLE io_states");
    const blocker = store.append("C0", { measurements: [row(T0 + 20_000, 230)] });
    const io = { ts: T0, module: 1, channel: 1, kind: "DI" as const, value: 0 };
    const failing = [
      store.append("C1", { measurements: [row(T0, 230)] }),
      store.append("C2", { measurements: [row(T0, 230)], io: [io] }),
    ];
    // Handlers attached at once: the group's batches reject together.
    const rejected = Promise.all(failing.map((p) => assert.rejects(p)));
    await blocker;
    await rejected;
    assert.deepEqual(await q("SELECT count(*)::INT FROM raw_measurements"), [[2]]);
    assert.deepEqual(await store.append("C1", { measurements: [row(T0, 230)] }), {
      accepted: 1,
      duplicates: 0,
    });
    assert.equal(store.seriesId("C2", 1, 0), undefined, "no series of the failed group kept");
  });
});

Deno.test("MeasurementStore.append() stores every column of the narrow row as sent, missing values as NULL", async () => {
  await withStore(async (store, _agg, q) => {
    const full: MeasurementRow = {
      ts: T0 + 40_000,
      feeder: 3,
      phase: 2,
      u: 231.25,
      i: 17.5,
      values: { p: 3.5, q: -1.25, pf: 0.95, thd_u: 2.5, thd_i: 7.75, f: 49.98 },
      pq: null,
    };
    const neutral: MeasurementRow = { ...row(T0 + 40_000, NaN, 3, 3), values: row(0, 0).values };
    await store.append("C1", { measurements: [full, neutral] });
    const rows = await q(
      `SELECT phase, epoch_ms(ts), u, i, p, q, pf, thd_u, thd_i, f
       FROM raw_measurements JOIN series USING (series_id) ORDER BY phase`,
    );
    assert.deepEqual(rows.map((r) => r.map((v) => typeof v === "bigint" ? Number(v) : v)), [
      [2, T0 + 40_000, 231.25, 17.5, 3.5, -1.25, Math.fround(0.95), 2.5, 7.75, Math.fround(49.98)],
      [3, T0 + 40_000, null, 10, null, null, null, null, null, 50],
    ]);
    assert.deepEqual(
      (await q(
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'raw_measurements'",
      ))
        .map(([name]) => name),
      ["series_id", "ts", "u", "i", "p", "q", "pf", "thd_u", "thd_i", "f"],
    );
  });
});

/** A protocol v1 row of L1, feeder 1, with harmonics `h` (all orders) and the other PQ values. */
function v1Row(ts: number, h: number, pst: number, unbalance = 0.5): MeasurementRow {
  const pq = { unbalance, pst, plt: pst / 2, h: new Float32Array(24).fill(h) };
  return { ...row(ts, 230), pq };
}

const PQ_COLUMNS = "origin, windows::INT, n_h::INT, n_unbalance::INT, unbalance, pst, plt, h2, h25";

Deno.test("MeasurementStore.writeFolds() folds protocol v1 PQ values of a closed slot into one record: RMS, mean, maxima", async () => {
  await withStore(async (store, _agg, q) => {
    await store.append("C1", { measurements: [v1Row(T0, 3, 0.5), v1Row(T0 + 20_000, 4, 0.75)] });
    assert.equal(await store.writeFolds(T0 + SLOT_MS), 0, "not before the slot's grace");
    assert.deepEqual(await q("SELECT count(*)::INT FROM pq_10min"), [[0]]);
    assert.equal(await store.writeFolds(T0 + SLOT_MS + SLOT_GRACE_MS), 1);
    assert.deepEqual(await q(`SELECT ${PQ_COLUMNS} FROM pq_10min`), [[
      2,
      3,
      2,
      2,
      0.5,
      0.75,
      0.375,
      3.5355339050292970,
      3.5355339050292970,
    ]]);
    // A late value is merged into the stored record through its counts.
    await store.append("C1", { measurements: [v1Row(T0 + 580_000, 5, 0.25, 2)] });
    await store.writeFolds(T0 + SLOT_MS + SLOT_GRACE_MS);
    const [, windows, nH, nU, unbalance, pst, , h2] = (await q(
      `SELECT ${PQ_COLUMNS} FROM pq_10min`,
    ))[0] as number[];
    assert.deepEqual([windows, nH, nU, pst], [(1 << 29 | 3) >>> 0, 3, 3, 0.75]);
    assert.equal(unbalance, 1);
    assert.ok(Math.abs(h2! - Math.sqrt((9 + 16 + 25) / 3)) < 1e-6);
  });
});

Deno.test("MeasurementStore.writeFolds() and Aggregator.flush() drop their staging tables after each write", async () => {
  // DuckDB keeps a temporary table's deleted rows in memory: emptied, not dropped, the staging
  // tables of every close held their rows until the process ended.
  await withStore(async (store, agg, _q, _reader, { writer, aggregation }) => {
    const staging = async (c: DuckDBConnection) =>
      (await c.runAndReadAll(
        "SELECT table_name FROM duckdb_tables() WHERE temporary AND table_name LIKE '%_stage'",
      )).getRows();
    await store.append("C1", { measurements: [v1Row(T0, 3, 0.5), v1Row(T0 + 20_000, 4, 0.75)] });
    assert.equal(await store.writeFolds(T0 + SLOT_MS + SLOT_GRACE_MS), 1);
    assert.equal(await agg.flush(T0 + SLOT_MS + SLOT_GRACE_MS), 1); // the first close
    await store.append("C1", { measurements: [v1Row(T0 + 40_000, 5, 0.25)] });
    await store.writeFolds(T0 + SLOT_MS + SLOT_GRACE_MS); // a late value merged
    assert.equal(await agg.flush(T0 + 2 * SLOT_MS + SLOT_GRACE_MS), 1); // the slot closed again
    assert.deepEqual(await staging(writer), []);
    assert.deepEqual(await staging(aggregation), []);
  });
});

Deno.test("MeasurementStore.append() stores a cell's own PQ record once (held until the next write), in place of a fold of the same slot", async () => {
  await withStore(async (store, _agg, q) => {
    const record = (pst: number) => ({
      slot: T0,
      feeder: 1,
      phase: 0,
      unbalance: 0.25,
      pst,
      plt: 0.5,
      h: new Float32Array(24).fill(1.5),
    });
    await store.append("C1", { measurements: [v1Row(T0, 3, 0.5)] });
    await store.writeFolds(T0 + SLOT_MS + SLOT_GRACE_MS);
    assert.deepEqual(await q("SELECT origin FROM pq_10min"), [[2]]);
    assert.deepEqual(await store.append("C1", { measurements: [], pq: [record(0.5)] }), {
      accepted: 1,
      duplicates: 0,
    });
    assert.deepEqual(await q("SELECT origin FROM pq_10min"), [[2]], "held, not written yet");
    // A resend: its lookup writes what is held first.
    assert.deepEqual(await store.append("C1", { measurements: [], pq: [record(0.5)] }), {
      accepted: 0,
      duplicates: 1,
    });
    assert.deepEqual(await store.append("C1", { measurements: [], pq: [record(0.75)] }), {
      accepted: 0,
      duplicates: 1,
    });
    assert.deepEqual(await q(`SELECT ${PQ_COLUMNS} FROM pq_10min`), [[
      1,
      0,
      0,
      0,
      0.25,
      0.5,
      0.5,
      1.5,
      1.5,
    ]]);
    // A later v1 value of the slot does not touch the device's record.
    await store.append("C1", { measurements: [v1Row(T0 + 40_000, 9, 3)] });
    await store.writeFolds(T0 + SLOT_MS + SLOT_GRACE_MS);
    assert.deepEqual(await q("SELECT origin, pst FROM pq_10min"), [[1, 0.5]]);
    // A new series' first record: a new slot, no lookup needed after it.
    assert.deepEqual(
      await store.append("C2", {
        measurements: [],
        pq: [record(1), { ...record(1), slot: T0 + SLOT_MS }],
      }),
      { accepted: 2, duplicates: 0 },
    );
    assert.equal(await store.writeFolds(T0), 2, "held records are written with the folds");
    assert.deepEqual(await q("SELECT count(*)::INT FROM pq_10min"), [[3]]);
  });
});

Deno.test("MeasurementStore.append() stores events and I/O states once and flags their slot on flush", async () => {
  await withStore(async (store, agg, q) => {
    const event = {
      id: "e1",
      type: "DIP" as const,
      start: T0 + 5000,
      end: T0 + 5240,
      startPhase: "L1",
      endPhase: "L2",
      extremePct: 62,
      deltaUPct: null,
      trace: null,
      kind: "DIP",
      tableCell: "80-70/200-500ms",
    };
    const io = { ts: T0, module: 1, channel: 2, kind: "DI" as const, value: 1 };
    const batch = { measurements: [row(T0, 230)], events: [event], io: [io] };
    await store.append("C1", batch);
    await store.append("C1", batch);
    assert.deepEqual(await q("SELECT count(*)::INT FROM voltage_events"), [[1]]);
    assert.deepEqual(await q("SELECT count(*)::INT FROM io_states"), [[1]]);
    await agg.flush(T0 + 2 * SLOT_MS);
    assert.deepEqual(await q("SELECT flagged FROM agg_10min"), [[true]]);
  });
});

Deno.test("MeasurementStore.append() leaves nothing of a batch behind when its transaction fails", async () => {
  await withStore(async (store, _agg, q) => {
    const broken = {
      id: "e2",
      type: "DIP" as const,
      start: T0,
      end: T0 + 1,
      startPhase: null,
      endPhase: null,
      extremePct: 50,
      deltaUPct: null,
      trace: null,
      kind: "DIP",
      tableCell: "80-70/200-500ms",
    };
    await q("DROP TABLE io_states"); // the I/O insert now fails after the event insert
    const io = { ts: T0, module: 1, channel: 1, kind: "DI" as const, value: 0 };
    await assert.rejects(
      store.append("C1", { measurements: [row(T0, 230)], events: [broken], io: [io] }),
    );
    assert.deepEqual(
      await q(
        "SELECT (SELECT count(*) FROM raw_measurements)::INT, (SELECT count(*) FROM voltage_events)::INT",
      ),
      [[0, 0]],
    );
    assert.deepEqual(await store.append("C1", { measurements: [row(T0, 230)] }), {
      accepted: 1,
      duplicates: 0,
    });
  });
});

/** A DuckDB connection whose writes fail while `blocked.on`: DuckDB cannot take anything. */
function blockable(connection: DuckDBConnection, blocked: { on: boolean }): DuckDBConnection {
  return new Proxy(connection, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (key === "run") {
        return (sql: string) =>
          blocked.on && /^BEGIN/.test(sql)
            ? Promise.reject(new Error("disk full (test)"))
            : target.run(sql);
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

Deno.test("MeasurementStore with a journal acknowledges what DuckDB cannot take yet and writes it at the next open", async () => {
  const dir = await mkdtemp(join(tmpdir(), "gw-store-journal-"));
  const instance = await DuckDBInstance.create(join(dir, "t.duckdb"));
  const [writer, reader] = [await instance.connect(), await instance.connect()];
  const count = async () =>
    (await reader.runAndReadAll(
      "SELECT count(*)::INT, count(DISTINCT (series_id, ts))::INT FROM raw_measurements",
    ))
      .getRows()[0];
  try {
    const blocked = { on: false };
    const first = await MeasurementStore.open(blockable(writer, blocked), {
      journal: await Journal.open(join(dir, "journal")),
    });
    // Idle: answered after its DuckDB write, so a query sees it.
    await first.append("C1", { measurements: [row(T0, 230)] });
    assert.deepEqual(await count(), [1, 1]);
    // DuckDB refuses: the batches are still acknowledged (journaled), retries are duplicates.
    blocked.on = true;
    const batches = Array.from({ length: 20 }, (_, k) => row(T0 + 20_000 * (k + 1), 231 + k));
    const answers = await Promise.all(
      ["C1", "C2", "C3"].map((cell) => first.append(cell, { measurements: batches })),
    );
    assert.deepEqual(answers.map((a) => a.accepted), [20, 20, 20]);
    assert.equal(first.backlog.rows, 60);
    assert.deepEqual(await count(), [1, 1]);
    first.close(); // the process dies here: memory gone, journal on disk

    blocked.on = false;
    const second = await MeasurementStore.open(writer, {
      journal: await Journal.open(join(dir, "journal")),
    });
    assert.deepEqual(await count(), [61, 61]);
    assert.deepEqual(second.backlog, { groups: 0, rows: 0, bytes: 0, waitingBytes: 0 });
    // The series and watermarks came back: a resend is a duplicate, not a second row.
    assert.deepEqual(await second.append("C2", { measurements: batches }), {
      accepted: 0,
      duplicates: 20,
    });
    second.close();
    // A third open finds nothing left to write.
    const third = await MeasurementStore.open(writer, {
      journal: await Journal.open(join(dir, "journal")),
    });
    assert.deepEqual(await count(), [61, 61]);
    third.close();
  } finally {
    for (const c of [writer, reader]) c.closeSync();
    instance.closeSync();
    await releaseNativeHandles();
    await rm(dir, { recursive: true, force: true });
  }
});

Deno.test("MeasurementStore with a journal folds protocol v1 PQ values again after a crash, each window once", async () => {
  const dir = await mkdtemp(join(tmpdir(), "gw-store-fold-"));
  const instance = await DuckDBInstance.create(join(dir, "t.duckdb"));
  const [writer, reader] = [await instance.connect(), await instance.connect()];
  const q = async (sql: string) => (await reader.runAndReadAll(sql)).getRows() as unknown[][];
  const open = async () =>
    await MeasurementStore.open(writer, { journal: await Journal.open(join(dir, "journal")) });
  try {
    // A crash before any fold was stored: the journal holds every folded value.
    const zero = await open();
    await zero.append("C1", { measurements: [v1Row(T0 - SLOT_MS, 2, 0.5)] });
    zero.close();
    const first = await open();
    assert.equal(await first.writeFolds(T0 + SLOT_GRACE_MS), 1);
    assert.deepEqual(await q("SELECT windows::INT, n_h::INT, h2 FROM pq_10min"), [[1, 1, 2]]);
    await writer.run("DELETE FROM pq_10min");
    // One record with slot 0's first window and slot 1's first window.
    await first.append("C1", { measurements: [v1Row(T0, 3, 0.5), v1Row(T0 + SLOT_MS, 6, 1)] });
    // Slot 0 closes and is written; slot 1 stays in memory.
    assert.equal(await first.writeFolds(T0 + SLOT_MS + SLOT_GRACE_MS), 1);
    await first.append("C1", { measurements: [v1Row(T0 + SLOT_MS + 20_000, 8, 0.25)] });
    first.close(); // the process dies: slot 1's fold is lost from memory

    const second = await open();
    assert.equal(await second.writeFolds(T0 + 2 * SLOT_MS + SLOT_GRACE_MS), 1);
    assert.deepEqual(
      await q(`SELECT epoch_ms(slot), windows::INT, n_h::INT, pst, h2 FROM pq_10min ORDER BY slot`),
      [
        [BigInt(T0), 1, 1, 0.5, 3],
        [BigInt(T0 + SLOT_MS), 3, 2, 1, Math.fround(Math.sqrt((36 + 64) / 2))],
      ],
    );
    second.close();
    // Nothing is folded twice by a further restart.
    const third = await open();
    assert.equal(await third.writeFolds(T0 + 3 * SLOT_MS), 0);
    assert.deepEqual(await q("SELECT sum(n_h)::INT FROM pq_10min"), [[3]]);
    third.close();
  } finally {
    for (const c of [writer, reader]) c.closeSync();
    instance.closeSync();
    await releaseNativeHandles();
    await rm(dir, { recursive: true, force: true });
  }
});
