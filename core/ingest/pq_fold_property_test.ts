import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { DuckDBInstance } from "@duckdb/node-api";
import { Journal } from "./journal.ts";
import { FOLD_GRACE_MS, MeasurementStore, SLOT_MS } from "./store.ts";
import type { MeasurementRow, PqValues } from "./validate.ts";
import type { PqRow } from "./validate_pq.ts";
import { releaseNativeHandles } from "../time_series_store.ts";

const T0 = Date.parse("2026-11-16T00:00:00Z");
const SLOTS = 3;
const WINDOWS = SLOTS * (SLOT_MS / 20_000);
const CELLS = ["C0", "C1"];

const small = (max: number) => fc.integer({ min: 0, max: max * 100 }).map((v) => v / 100);
const maybe = (arb: fc.Arbitrary<number>) =>
  fc.oneof({ weight: 3, arbitrary: arb }, { weight: 1, arbitrary: fc.constant(NaN) });
const pqArb: fc.Arbitrary<PqValues> = fc.record({
  unbalance: maybe(small(3)),
  pst: maybe(small(2)),
  plt: maybe(small(2)),
  h: fc.option(fc.array(small(8), { minLength: 24, maxLength: 24 }))
    .map((h) => h && Float32Array.from(h)),
});

const rowArb: fc.Arbitrary<MeasurementRow> = fc.record({
  window: fc.integer({ min: 0, max: WINDOWS - 1 }),
  phase: fc.integer({ min: 0, max: 2 }),
  pq: fc.option(pqArb, { freq: 6 }),
}).map((r) => ({
  ts: T0 + r.window * 20_000,
  feeder: 1,
  phase: r.phase,
  u: 230,
  i: 10,
  values: { p: NaN, q: NaN, pf: NaN, thd_u: NaN, thd_i: NaN, f: NaN },
  pq: r.pq,
}));

const recordArb: fc.Arbitrary<PqRow> = fc.record({
  slot: fc.integer({ min: 0, max: SLOTS - 1 }).map((k) => T0 + k * SLOT_MS),
  phase: fc.integer({ min: 0, max: 2 }),
  values: pqArb,
}).map((r) => ({ slot: r.slot, feeder: 1, phase: r.phase, ...r.values }));

/** One step: a v1 batch, a v2 batch with PQ records, a fold write, or a crash and restart. */
type Step =
  | { kind: "rows"; cell: number; rows: MeasurementRow[] }
  | { kind: "records"; cell: number; records: PqRow[] }
  | { kind: "fold"; at: number }
  | { kind: "restart" };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant("rows" as const),
      cell: fc.integer({ min: 0, max: 1 }),
      rows: fc.array(rowArb, { maxLength: 15 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("records" as const),
      cell: fc.integer({ min: 0, max: 1 }),
      records: fc.array(recordArb, { maxLength: 3 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("fold" as const),
      at: fc.integer({ min: 0, max: SLOTS + 1 }).map((k) => T0 + k * SLOT_MS + FOLD_GRACE_MS),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ kind: "restart" as const }) },
);

/** The first of each key, as validation keeps it within a batch. */
function distinct<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(key(item)) && seen.add(key(item)));
}

/** What `pq_10min` must hold: per `cell|phase|slot`, the device record or the fold. */
function reference(steps: readonly Step[]): Map<string, unknown[]> {
  const stored = new Map<string, MeasurementRow>();
  const devices = new Map<string, PqRow>();
  for (const step of steps) {
    if (step.kind === "rows") {
      for (const row of distinct(step.rows, (r) => `${r.phase}|${r.ts}`)) {
        const key = `${CELLS[step.cell]}|${row.phase}|${row.ts}`;
        if (!stored.has(key)) stored.set(key, row);
      }
    } else if (step.kind === "records") {
      for (const record of distinct(step.records, (r) => `${r.phase}|${r.slot}`)) {
        const key = `${CELLS[step.cell]}|${record.phase}|${record.slot}`;
        if (!devices.has(key)) devices.set(key, record);
      }
    }
  }
  const f = Math.fround;
  const out = new Map<string, unknown[]>();
  for (const [key, r] of devices) {
    out.set(key, [1, 0, f(r.unbalance), f(r.pst), f(r.plt), r.h ? r.h[0] : NaN, r.h?.[23] ?? NaN]);
  }
  const folds = new Map<string, MeasurementRow[]>();
  for (const [key, row] of stored) {
    if (!row.pq) continue;
    const [cell, phase] = key.split("|");
    const slotKey = `${cell}|${phase}|${row.ts - (row.ts % SLOT_MS)}`;
    if (!devices.has(slotKey)) folds.set(slotKey, [...(folds.get(slotKey) ?? []), row]);
  }
  for (const [key, rows] of folds) {
    const values = (pick: (pq: PqValues) => number) =>
      rows.map((r) => f(pick(r.pq!))).filter((v) => v === v);
    const unbalance = values((pq) => pq.unbalance);
    const withH = rows.filter((r) => r.pq!.h);
    const rms = (k: number) =>
      withH.length
        ? f(Math.sqrt(withH.reduce((s, r) => s + f(r.pq!.h![k]! * r.pq!.h![k]!), 0) / withH.length))
        : NaN;
    const max = (list: number[]) => list.length ? Math.max(...list) : NaN;
    const windows = rows.reduce((m, r) => (m | (1 << ((r.ts % SLOT_MS) / 20_000))) >>> 0, 0);
    out.set(key, [
      2,
      windows,
      unbalance.length ? f(unbalance.reduce((a, b) => a + b, 0) / unbalance.length) : NaN,
      max(values((pq) => pq.pst)),
      max(values((pq) => pq.plt)),
      rms(0),
      rms(23),
    ]);
  }
  return out;
}

const close = (a: unknown, b: unknown) =>
  typeof a === "number" && typeof b === "number"
    ? (Number.isNaN(a) && Number.isNaN(b)) || Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b))
    : a === b;

Deno.test("MeasurementStore: protocol v1 PQ values are folded exactly once into their slot's record, a device's record wins, across fold writes, late values and crashes", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 25 }), async (steps) => {
      const dir = await mkdtemp(join(tmpdir(), "gw-fold-"));
      const instance = await DuckDBInstance.create(":memory:");
      const writer = await instance.connect();
      const reader = await instance.connect();
      const open = async () =>
        await MeasurementStore.open(writer, { journal: await Journal.open(join(dir, "j")) });
      try {
        let store = await open();
        for (const step of steps) {
          if (step.kind === "rows") {
            const rows = distinct(step.rows, (r) => `${r.phase}|${r.ts}`);
            await store.append(CELLS[step.cell]!, { measurements: rows });
          } else if (step.kind === "records") {
            const pq = distinct(step.records, (r) => `${r.phase}|${r.slot}`);
            await store.append(CELLS[step.cell]!, { measurements: [], pq });
          } else if (step.kind === "fold") {
            await store.writeFolds(step.at);
          } else {
            // A crash: what DuckDB holds stays, the folds in memory are gone.
            await store.flush();
            store.close();
            store = await open();
          }
        }
        await store.flush();
        await store.writeFolds(T0 + (SLOTS + 2) * SLOT_MS);
        store.close();
        const rows = (await reader.runAndReadAll(
          `SELECT s.cell_id, s.phase, epoch_ms(p.slot), p.origin, p.windows, p.unbalance, p.pst,
             p.plt, p.h2, p.h25, p.n_h FROM pq_10min p JOIN series s USING (series_id)`,
        )).getRows();
        const expected = reference(steps);
        const got = new Map(
          rows.map((r) => [
            `${r[0]}|${r[1]}|${Number(r[2])}`,
            r.slice(3, 10).map((v) => v === null ? NaN : Number(v)),
          ]),
        );
        assert.equal(rows.length, got.size, "one record per series and slot");
        assert.deepEqual([...got.keys()].sort(), [...expected.keys()].sort());
        for (const [key, want] of expected) {
          const have = got.get(key)!;
          want.forEach((v, c) =>
            assert.ok(close(have[c], v), `${key} column ${c}: ${have[c]} vs ${v}`)
          );
        }
      } finally {
        reader.closeSync();
        writer.closeSync();
        instance.closeSync();
        await releaseNativeHandles();
        await rm(dir, { recursive: true, force: true });
      }
    }),
    { numRuns: Number(Deno.env.get("FOLD_PROPERTY_RUNS") ?? 25) },
  );
});
