import assert from "node:assert/strict";
import { validatePq } from "./validate_pq.ts";

const NOW = Date.parse("2026-11-22T10:00:00Z");
const ctx = { now: NOW, oldest: NOW - 30 * 86_400_000, feederSlots: [1, 2], protocol: 2 as const };
const h = Array.from({ length: 24 }, (_, k) => k / 10);
const good = {
  slot: "2026-11-22T09:50:00Z",
  feeder: 1,
  phase: "L2",
  h_u: h,
  pst: 0.5,
  plt: 0.25,
  unbalance: 0.75,
};

Deno.test("validatePq() accepts a record of an ended 10-minute slot, missing values as NaN", () => {
  const { rows, rejected } = validatePq(
    [good, { slot: good.slot, feeder: 2, phase: "L1", pst: 1 }],
    ctx,
  );
  assert.deepEqual(rejected, []);
  assert.deepEqual(rows[0], {
    slot: Date.parse(good.slot),
    feeder: 1,
    phase: 1,
    unbalance: 0.75,
    pst: 0.5,
    plt: 0.25,
    h: Float32Array.from(h),
  });
  assert.equal(rows[1]!.h, null);
  assert.ok(Number.isNaN(rows[1]!.plt) && Number.isNaN(rows[1]!.unbalance));
  // The slot that ends now, within the 5-minute tolerance for the cell's clock.
  assert.equal(validatePq([{ ...good, slot: "2026-11-22T09:55:00Z" }], ctx).rows.length, 0);
  assert.equal(
    validatePq([{ ...good, slot: "2026-11-22T09:50:00Z" }], { ...ctx, now: NOW - 300_000 }).rows
      .length,
    1,
  );
});

Deno.test("validatePq() refuses each bad record with its field and keeps the good ones", () => {
  const bad: [unknown, string, string][] = [
    [{ ...good, slot: "2026-11-22T09:45:00Z" }, "slot", "ingest.notSlotAligned"],
    [{ ...good, slot: "2026-11-22T09:50:00" }, "slot", "ingest.invalidTimestamp"],
    [{ ...good, slot: undefined }, "slot", "ingest.required"],
    [{ ...good, slot: "2026-11-22T10:00:00Z" }, "slot", "ingest.inFuture"],
    [{ ...good, slot: "2026-10-01T00:00:00Z" }, "slot", "ingest.tooOld"],
    [{ ...good, feeder: 0 }, "feeder", "ingest.outOfRange"],
    [{ ...good, feeder: 3 }, "feeder", "ingest.unknownFeeder"],
    [{ ...good, phase: "N" }, "phase", "ingest.outOfRange"],
    [{ ...good, pst: 20.5 }, "pst", "ingest.outOfRange"],
    [{ ...good, unbalance: "1" }, "unbalance", "ingest.notANumber"],
    [{ ...good, plt: Number.NaN }, "plt", "ingest.notFinite"],
    [{ ...good, h_u: h.slice(1) }, "h_u", "ingest.harmonicsLength"],
    [{ ...good, h_u: [...h.slice(1), 101] }, "h_u[23]", "ingest.outOfRange"],
    [{ ...good, ts: good.slot }, "ts", "ingest.unknownField"],
    [{ slot: good.slot, feeder: 1, phase: "L1" }, "", "ingest.pqEmpty"],
    [[good], "", "ingest.notAnObject"],
  ];
  const { rows, rejected } = validatePq([good, ...bad.map(([r]) => r)], ctx);
  assert.equal(rows.length, 1);
  assert.deepEqual(
    rejected.map((r) => [r.section, r.index, r.field, r.key]),
    bad.map(([, field, key], k) => ["pq", k + 1, field, key]),
  );
});

Deno.test("validatePq() refuses a second record of the same slot, feeder and phase, and a non-list", () => {
  const { rows, rejected } = validatePq([good, { ...good, pst: 1 }], ctx);
  assert.equal(rows.length, 1);
  assert.deepEqual(rejected.map((r) => [r.index, r.key]), [[1, "ingest.duplicateInBatch"]]);
  assert.deepEqual(validatePq({}, ctx).rejected, [
    { section: "batch", index: -1, field: "pq", key: "ingest.notAList" },
  ]);
  assert.deepEqual(validatePq(undefined, ctx), { rows: [], rejected: [] });
});
