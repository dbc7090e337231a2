import assert from "node:assert/strict";
import fc from "fast-check";
import { DuckDBInstance } from "@duckdb/node-api";
import { Aggregator, SLOT_GRACE_MS } from "./aggregate.ts";
import { MeasurementStore, SLOT_MS } from "./store.ts";
import type { MeasurementRow } from "./validate.ts";
import type { EventRow } from "./validate_extras.ts";
import { releaseNativeHandles } from "../time_series_store.ts";
import { dip } from "./_store_fixtures.ts";

const T0 = Date.parse("2026-11-16T00:00:00Z");
const SLOTS = 3;
const WINDOWS = SLOTS * (SLOT_MS / 20_000);

const maybe = (arb: fc.Arbitrary<number>) =>
  fc.oneof({ weight: 3, arbitrary: arb }, { weight: 1, arbitrary: fc.constant(NaN) });
const value = (min: number, max: number) =>
  maybe(fc.double({ min, max, noNaN: true, noDefaultInfinity: true }));

const rowArb: fc.Arbitrary<MeasurementRow> = fc.record({
  window: fc.integer({ min: 0, max: WINDOWS - 1 }),
  feeder: fc.integer({ min: 1, max: 2 }),
  phase: fc.integer({ min: 0, max: 3 }),
  u: fc.double({ min: 180, max: 260, noNaN: true }),
  i: fc.double({ min: 0, max: 400, noNaN: true }),
  p: value(-100, 100),
  q: value(-50, 50),
  pf: value(-1, 1),
  thd_u: value(0, 10),
  thd_i: value(0, 40),
  f: value(49.5, 50.5),
}).map((r) => ({
  ts: T0 + r.window * 20_000,
  feeder: r.feeder,
  phase: r.phase,
  u: r.phase === 3 ? NaN : r.u,
  i: r.i,
  values: {
    p: r.p,
    q: r.q,
    pf: r.pf,
    thd_u: r.thd_u,
    thd_i: r.thd_i,
    f: r.f,
  },
  pq: null,
}));

/** One step of a random history: a batch, a flush at some time, or a restart of the process. */
type Step =
  | { kind: "batch"; cell: number; rows: MeasurementRow[]; event: number | null }
  | { kind: "flush"; at: number }
  | { kind: "restart" };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant("batch" as const),
      cell: fc.integer({ min: 0, max: 2 }),
      rows: fc.array(rowArb, { maxLength: 12 }),
      event: fc.option(fc.integer({ min: 0, max: SLOTS * SLOT_MS - 1 }), { freq: 8 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("flush" as const),
      at: fc.integer({ min: 0, max: SLOTS + 1 }).map((k) => T0 + k * SLOT_MS + SLOT_GRACE_MS),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "restart" as const }) },
);

/** Keeps the first record per (feeder, phase, ts), as validation does within a batch. */
function distinct(rows: MeasurementRow[]): MeasurementRow[] {
  const seen = new Set<string>();
  return rows.filter((r) => {
    const key = `${r.ts}|${r.feeder}|${r.phase}`;
    return !seen.has(key) && seen.add(key);
  });
}

function event(id: number, start: number): EventRow {
  return dip(`e${id}`, T0 + start, 300);
}

const TABLES = ["agg_10min", "agg_1h", "agg_1d"] as const;

Deno.test("Aggregator: the incremental 10-minute aggregates and rollups equal the SQL recomputation on random histories with late, duplicate and restarted data", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 25 }), async (steps) => {
      const instance = await DuckDBInstance.create(":memory:");
      const writer = await instance.connect();
      const reader = await instance.connect();
      try {
        const start = async () => {
          const store = await MeasurementStore.open(writer);
          const agg = new Aggregator(reader);
          store.onSlotsTouched((slots) => agg.markDirty(slots));
          await agg.recover(2, T0 + SLOTS * SLOT_MS);
          return { store, agg };
        };
        let { store, agg } = await start();
        let events = 0;
        for (const step of steps) {
          if (step.kind === "batch") {
            const e = step.event === null ? [] : [event(events++, step.event)];
            await store.append(`C${step.cell}`, { measurements: distinct(step.rows), events: e });
          } else if (step.kind === "flush") {
            await agg.flush(step.at);
          } else {
            ({ store, agg } = await start());
          }
        }
        await agg.flush(T0 + (SLOTS + 2) * SLOT_MS);
        const read = async (table: string) =>
          (await reader.runAndReadAll(`SELECT * FROM ${table} ORDER BY series_id, slot`))
            .getRows();
        const incremental = await Promise.all(TABLES.map(read));
        // The reference: every slot recomputed in SQL, every rollup of every series.
        for (const table of TABLES) await reader.run(`DELETE FROM ${table}`);
        const reference = new Aggregator(reader);
        reference.markDirty(Array.from({ length: SLOTS }, (_, k) => T0 + k * SLOT_MS));
        await reference.flush(T0 + (SLOTS + 2) * SLOT_MS);
        const expected = await Promise.all(TABLES.map(read));
        assert.deepEqual(incremental[0], expected[0], "agg_10min");
        // Rollups sum in another row order: equal up to FLOAT rounding.
        for (const k of [1, 2]) {
          assert.equal(incremental[k]!.length, expected[k]!.length, `${TABLES[k]} rows`);
          incremental[k]!.forEach((row, r) =>
            row.forEach((value, c) => {
              const want = expected[k]![r]![c];
              if (typeof value === "number" && typeof want === "number") {
                assert.ok(
                  Math.abs(value - want) <= 1e-6 * Math.abs(want),
                  `${TABLES[k]} ${r}/${c}`,
                );
              } else assert.deepEqual(value, want, `${TABLES[k]} ${r}/${c}`);
            })
          );
        }
      } finally {
        reader.closeSync();
        writer.closeSync();
        instance.closeSync();
        await releaseNativeHandles();
      }
    }),
    { numRuns: Number(Deno.env.get("AGG_PROPERTY_RUNS") ?? 30) },
  );
});
