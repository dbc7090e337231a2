import assert from "node:assert/strict";
import { DuckDBInstance } from "@duckdb/node-api";
import { Aggregator } from "./aggregate.ts";
import { MeasurementStore, SLOT_MS } from "./store.ts";
import { releaseNativeHandles } from "../time_series_store.ts";
import { DDL, dropSlotKeys, SLOT_TABLES } from "./schema.ts";

const T0 = Date.parse("2026-11-16T00:00:00Z");
const stamp = (ms: number) => `make_timestamp(${ms * 1000})`;
const orders = Array.from({ length: 24 }, (_, k) => k + 2);
const harmonics = (type: string) => orders.map((h) => `h${h} ${type}`).join(", ");

/** The tables of the release before the narrow hot row (37-column raw rows). */
const OLD_DDL = [
  `CREATE TABLE series (series_id INTEGER PRIMARY KEY, cell_id VARCHAR NOT NULL,
    feeder UTINYINT NOT NULL, phase UTINYINT NOT NULL, UNIQUE (cell_id, feeder, phase))`,
  `CREATE TABLE raw_measurements (series_id INTEGER NOT NULL, ts TIMESTAMP NOT NULL,
    u FLOAT, i FLOAT, p FLOAT, q FLOAT, pf FLOAT, thd_u FLOAT, thd_i FLOAT, f FLOAT,
    unbalance FLOAT, pst FLOAT, plt FLOAT, ${harmonics("FLOAT")})`,
  ...["agg_10min", "agg_1h", "agg_1d"].map((name) =>
    `CREATE TABLE ${name} (series_id INTEGER NOT NULL, slot TIMESTAMP NOT NULL,
      n USMALLINT NOT NULL, u_rms FLOAT, u_min FLOAT, u_max FLOAT, i_rms FLOAT, i_min FLOAT,
      i_max FLOAT, p_mean FLOAT, q_mean FLOAT, pf_mean FLOAT, thd_u FLOAT, thd_i FLOAT,
      f_mean FLOAT, f_min FLOAT, f_max FLOAT, unbalance FLOAT, pst_max FLOAT, plt FLOAT,
      ${harmonics("FLOAT")}, flagged BOOLEAN NOT NULL, PRIMARY KEY (series_id, slot))`
  ),
];

Deno.test("MeasurementStore.open() moves a file of the earlier release to the narrow layout, PQ values kept", async () => {
  const instance = await DuckDBInstance.create(":memory:");
  const c = await instance.connect();
  const q = async (sql: string) => (await c.runAndReadAll(sql)).getRows();
  try {
    for (const statement of OLD_DDL) await c.run(statement);
    await c.run(`INSERT INTO series VALUES (1, 'C1', 1, 0)`);
    // Slot 0 (raw rows, not aggregated yet): two 20-s rows with harmonics 3 and 4.
    const hs = (v: number) => orders.map(() => v).join(", ");
    await c.run(`INSERT INTO raw_measurements VALUES
      (1, ${stamp(T0)}, 230, 10, 1, 0, 1, 2, 5, 50, 0.5, 0.25, 0.75, ${hs(3)}),
      (1, ${stamp(T0 + 20_000)}, 231, 10, 1, 0, 1, 2, 5, 50, 1.5, 0.5, 0.25, ${hs(4)})`);
    // An older slot whose raw rows are past their lifetime: only its aggregate holds PQ values.
    const old = T0 - 7 * 86_400_000;
    await c.run(`INSERT INTO agg_10min VALUES (1, ${stamp(old)}, 30, 230, 229, 231, 10, 9, 11,
      1, 0, 1, 2, 5, 50, 49.9, 50.1, 0.4, 0.3, 0.2, ${hs(1.5)}, false)`);
    await c.run(`INSERT INTO agg_1h SELECT * FROM agg_10min`);

    const store = await MeasurementStore.open(c);
    assert.deepEqual(
      (await q(`SELECT column_name FROM information_schema.columns
        WHERE table_name = 'raw_measurements'`)).map(([name]) => name),
      ["series_id", "ts", "u", "i", "p", "q", "pf", "thd_u", "thd_i", "f"],
    );
    for (const table of ["agg_10min", "agg_1h", "agg_1d"]) {
      const columns = (await q(`SELECT column_name FROM information_schema.columns
        WHERE table_name = '${table}'`)).map(([name]) => name);
      assert.ok(!columns.includes("h2") && !columns.includes("pst_max"), table);
    }
    assert.deepEqual(
      await q(`SELECT epoch_ms(slot), origin, windows::INT, n_h::INT, n_unbalance::INT, unbalance,
        pst, plt, h2, h25 FROM pq_10min ORDER BY slot`),
      [
        [BigInt(old), 2, 0, 30, 30, Math.fround(0.4), Math.fround(0.3), Math.fround(0.2), 1.5, 1.5],
        [
          BigInt(T0),
          2,
          3,
          2,
          2,
          1,
          0.5,
          0.75,
          Math.fround(Math.sqrt(12.5)),
          Math.fround(Math.sqrt(12.5)),
        ],
      ],
    );
    assert.deepEqual(await q(`SELECT n::INT, pst, plt FROM pq_1h`), [[
      1,
      Math.fround(0.3),
      Math.fround(0.2),
    ]]);
    // The migrated file works: a late v1 row of slot 0 merges into the record.
    await store.append("C1", {
      measurements: [{
        ts: T0 + 40_000,
        feeder: 1,
        phase: 0,
        u: 230,
        i: 10,
        values: { p: 1, q: 0, pf: 1, thd_u: 2, thd_i: 5, f: 50 },
        pq: { unbalance: 2, pst: 1, plt: 1, h: new Float32Array(24).fill(5) },
      }],
    });
    await store.writeFolds(T0 + SLOT_MS + 60_000);
    assert.deepEqual(
      await q(`SELECT windows::INT, n_h::INT, pst FROM pq_10min WHERE slot = ${stamp(T0)}`),
      [[7, 3, 1]],
    );
    const agg = new Aggregator(c);
    store.onSlotsTouched((s) => agg.markDirty(s));
    assert.ok(await agg.recover(2, T0 + SLOT_MS) >= 1);
    await agg.flush(T0 + 2 * SLOT_MS);
    assert.deepEqual(await q(`SELECT n::INT FROM agg_10min WHERE slot = ${stamp(T0)}`), [[3]]);
    // A second open finds nothing to move.
    await MeasurementStore.open(c);
    assert.deepEqual(await q("SELECT count(*)::INT FROM pq_10min"), [[2]]);
  } finally {
    c.closeSync();
    instance.closeSync();
    await releaseNativeHandles();
  }
});

Deno.test("MeasurementStore.open() rebuilds the slot tables of an earlier release without their primary key, rows and NOT NULLs kept", async () => {
  const instance = await DuckDBInstance.create(":memory:");
  const c = await instance.connect();
  const q = async (sql: string) => (await c.runAndReadAll(sql)).getRows();
  const keyed = () =>
    q(`SELECT table_name FROM duckdb_constraints() WHERE constraint_type = 'PRIMARY KEY'
       ORDER BY table_name`);
  try {
    // The previous release: today's tables, each slot table with PRIMARY KEY (series_id, slot).
    for (const statement of DDL) {
      const table = SLOT_TABLES.find((t) => statement.includes(`EXISTS ${t} (`));
      await c.run(table ? `${statement.slice(0, -1)}, PRIMARY KEY (series_id, slot))` : statement);
    }
    assert.deepEqual(
      (await keyed()).flat().filter((t) => SLOT_TABLES.includes(t as never)),
      [
        ...SLOT_TABLES,
      ].sort(),
    );
    await c.run(`INSERT INTO agg_10min (series_id, slot, n, u_rms, flagged)
      VALUES (1, ${stamp(T0)}, 30, 230.5, true), (2, ${stamp(T0)}, 29, NULL, false)`);
    await c.run(`INSERT INTO pq_1h (series_id, slot, n, pst, h5_n, unbalance_n)
      VALUES (1, ${stamp(T0)}, 6, 0.75, 6, 5)`);
    const before = await Promise.all(SLOT_TABLES.map((t) => q(`SELECT * FROM ${t} ORDER BY ALL`)));
    const columns = (table: string) =>
      q(`SELECT column_name, data_type, is_nullable FROM information_schema.columns
         WHERE table_name = '${table}' ORDER BY ordinal_position`);
    const layout = await Promise.all(SLOT_TABLES.map(columns));

    await MeasurementStore.open(c);
    assert.deepEqual(await keyed(), [["io_states"], ["journal_position"], ["series"], [
      "voltage_events",
    ]]);
    assert.deepEqual(
      await Promise.all(SLOT_TABLES.map((t) => q(`SELECT * FROM ${t} ORDER BY ALL`))),
      before,
    );
    assert.deepEqual(await Promise.all(SLOT_TABLES.map(columns)), layout);
    await assert.rejects(
      c.run(
        `INSERT INTO agg_10min (series_id, slot, n, flagged) VALUES (NULL, ${stamp(T0)}, 1, false)`,
      ),
      /NOT NULL/,
    );
    // Nothing left behind, and a second open has nothing to rebuild.
    assert.deepEqual(
      await q(`SELECT count(*)::INT FROM duckdb_tables() WHERE table_name LIKE '%keyless%'`),
      [[0]],
    );
    assert.deepEqual(await dropSlotKeys(c), []);
  } finally {
    c.closeSync();
    instance.closeSync();
    await releaseNativeHandles();
  }
});
