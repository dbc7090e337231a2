import assert from "node:assert/strict";
import { parseUtc, validateMeasurements } from "./validate.ts";

const NOW = Date.parse("2026-11-22T10:00:00Z");
const ctx = { now: NOW, oldest: NOW - 30 * 86_400_000, feederSlots: [1, 2] };
const good = { ts: "2026-11-22T09:59:40Z", feeder: 1, phase: "L1", u: 231.2, i: 12.5, f: 50.01 };

Deno.test("validateMeasurements() accepts a well-formed record and fills missing optionals with NaN", () => {
  const { rows, rejected } = validateMeasurements([good], ctx);
  assert.deepEqual(rejected, []);
  assert.equal(rows[0]!.ts, Date.parse("2026-11-22T09:59:40Z"));
  assert.equal(rows[0]!.phase, 0);
  assert.equal(rows[0]!.values.f, 50.01);
  assert.ok(Number.isNaN(rows[0]!.values.p));
});

Deno.test("validateMeasurements() refuses each bad record with its field and keeps the good ones", () => {
  const bad: [Record<string, unknown>, string, string][] = [
    [{ ...good, u: Number.NaN }, "u", "ingest.notFinite"],
    [{ ...good, i: Number.POSITIVE_INFINITY }, "i", "ingest.notFinite"],
    [{ ...good, phase: "L4" }, "phase", "ingest.outOfRange"],
    [{ ...good, feeder: 7 }, "feeder", "ingest.outOfRange"],
    [{ ...good, feeder: 3 }, "feeder", "ingest.unknownFeeder"],
    [{ ...good, ts: "2026-11-22T09:59:41Z" }, "ts", "ingest.notAligned"],
    [{ ...good, ts: "2026-11-22T09:59:40" }, "ts", "ingest.invalidTimestamp"],
    [{ ...good, ts: "2026-11-22T10:06:00Z" }, "ts", "ingest.inFuture"],
    [{ ...good, ts: "2026-10-01T00:00:00Z" }, "ts", "ingest.tooOld"],
    [{ ...good, u: "231" }, "u", "ingest.notANumber"],
    [{ ...good, pf: 1.2 }, "pf", "ingest.outOfRange"],
    [{ ...good, h_u: [1, 2] }, "h_u", "ingest.harmonicsLength"],
    [{ ...good, volts: 3 }, "volts", "ingest.unknownField"],
    [{ ...good, i: undefined }, "i", "ingest.required"],
  ];
  const { rows, rejected } = validateMeasurements([good, ...bad.map(([r]) => r)], ctx);
  assert.equal(rows.length, 1);
  assert.deepEqual(
    rejected.map((r) => [r.index, r.field, r.key]),
    bad.map(([, field, key], k) => [k + 1, field, key]),
  );
});

Deno.test("validateMeasurements() accepts a neutral record without voltage", () => {
  const { rows } = validateMeasurements([{ ts: good.ts, feeder: 2, phase: "N", i: 3.1 }], ctx);
  assert.equal(rows.length, 1);
  assert.ok(Number.isNaN(rows[0]!.u));
});

Deno.test("validateMeasurements() refuses a second record for the same feeder, phase and time", () => {
  const { rows, rejected } = validateMeasurements([good, { ...good, u: 229 }], ctx);
  assert.equal(rows.length, 1);
  assert.equal(rejected[0]!.key, "ingest.duplicateInBatch");
});

Deno.test("parseUtc() reads only UTC timestamps", () => {
  assert.equal(parseUtc("2026-01-01T00:00:20.000Z"), Date.parse("2026-01-01T00:00:20Z"));
  assert.equal(parseUtc("2026-01-01T00:00:20+00:00"), Date.parse("2026-01-01T00:00:20Z"));
  assert.ok(Number.isNaN(parseUtc("2026-01-01T01:00:20+01:00")));
  assert.ok(Number.isNaN(parseUtc("not a date")));
});

Deno.test("validateMeasurements() v1 keeps a record's PQ values for the fold, v2 refuses them", () => {
  const h = Array.from({ length: 24 }, (_, k) => k / 10);
  const v1 = { ...good, h_u: h, pst: 0.5, plt: 0.25, unbalance: 0.75 };
  const [row] = validateMeasurements([v1], ctx).rows;
  assert.deepEqual(row!.pq, { unbalance: 0.75, pst: 0.5, plt: 0.25, h: Float32Array.from(h) });
  assert.equal(validateMeasurements([good], ctx).rows[0]!.pq, null, "none sent");
  assert.equal(
    validateMeasurements([{ ...good, pst: null }], ctx).rows[0]!.pq,
    null,
    "a field sent as null carries nothing",
  );
  const v2 = { ...ctx, protocol: 2 as const };
  assert.deepEqual(validateMeasurements([good], v2).rows[0]!.pq, null);
  for (const field of ["h_u", "pst", "plt", "unbalance"]) {
    const { rows, rejected } = validateMeasurements([{ ...good, [field]: 1 }], v2);
    assert.equal(rows.length, 0);
    assert.deepEqual(rejected.map((r) => [r.field, r.key]), [[field, "ingest.unknownField"]]);
  }
  const { rejected } = validateMeasurements(
    [{ ...v1, pst: 21 }, { ...v1, h_u: h.map(() => -1) }],
    ctx,
  );
  assert.deepEqual(rejected.map((r) => [r.field, r.key]), [
    ["pst", "ingest.outOfRange"],
    ["h_u[0]", "ingest.outOfRange"],
  ]);
});
