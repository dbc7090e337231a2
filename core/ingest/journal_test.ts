import assert from "node:assert/strict";
import { mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { crc32, Journal } from "./journal.ts";
import { decodeGroup, encodeGroup } from "./journal_codec.ts";
import type { MeasurementRow } from "./validate.ts";
import type { PqRow } from "./validate_pq.ts";

async function withDir(fn: (dir: string) => Promise<void>) {
  const dir = await mkdtemp(join(tmpdir(), "gw-journal-"));
  try {
    await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const bytes = (s: string) => new TextEncoder().encode(s);

Deno.test("crc32() gives the IEEE check value of '123456789'", () => {
  assert.equal(crc32(bytes("123456789")), 0xcbf43926);
});

Deno.test("Journal.append() returns ordered positions and recover() reads the records after one", async () => {
  await withDir(async (dir) => {
    const journal = await Journal.open(dir);
    assert.deepEqual(await journal.recover(null), []);
    // Appended together: written and synced as one piece, each with its own position.
    const ends = await Promise.all(["a", "bb", "ccc"].map((s) => journal.append(bytes(s))));
    assert.deepEqual(ends.map((e) => e.offset), [9, 19, 30]);
    journal.close();
    const again = await Journal.open(dir);
    assert.deepEqual((await again.recover(null)).map((r) => text(r.payload)), ["a", "bb", "ccc"]);
    assert.deepEqual((await again.recover(ends[0]!)).map((r) => text(r.payload)), ["bb", "ccc"]);
    assert.deepEqual(await again.recover(ends[2]!), []);
    again.close();
  });
});

Deno.test("Journal.recover() cuts off a torn or corrupt tail and appends after the last good record", async () => {
  await withDir(async (dir) => {
    const journal = await Journal.open(dir);
    await journal.recover(null);
    const good = await journal.append(bytes("kept"));
    journal.close();
    const [file] = await readdir(dir);
    const path = join(dir, file!);
    // A crash in the middle of a write: a header that promises more than the file holds.
    await writeFile(path, new Uint8Array([50, 0, 0, 0, 1, 2, 3, 4, 9]), { flag: "a" });
    const reopened = await Journal.open(dir);
    assert.deepEqual((await reopened.recover(null)).map((r) => text(r.payload)), ["kept"]);
    assert.equal((await stat(path)).size, good.offset);
    await reopened.append(bytes("next"));
    reopened.close();
    const last = await Journal.open(dir);
    assert.deepEqual((await last.recover(null)).map((r) => text(r.payload)), ["kept", "next"]);
    last.close();
  });
});

Deno.test("Journal starts a new segment past its size and release() deletes the ones DuckDB holds", async () => {
  await withDir(async (dir) => {
    const journal = await Journal.open(dir, 40);
    await journal.recover(null);
    const ends = [];
    for (const s of ["x".repeat(40), "y".repeat(40), "z".repeat(40)]) {
      ends.push(await journal.append(bytes(s)));
    }
    assert.deepEqual(ends.map((e) => e.segment), [0, 1, 2]);
    assert.equal((await readdir(dir)).length, 3);
    await journal.release(ends[1]!);
    assert.deepEqual((await readdir(dir)).sort(), ["0000000000000001.log", "0000000000000002.log"]);
    journal.close();
    const again = await Journal.open(dir, 40);
    assert.deepEqual((await again.recover(ends[1]!)).map((r) => text(r.payload)), ["z".repeat(40)]);
    again.close();
  });
});

Deno.test("encodeGroup() and decodeGroup() round-trip rows (float32), v1 PQ values, PQ records, events and I/O", () => {
  const values = { p: 1.5, q: NaN, pf: 0.98, thd_u: 2, thd_i: 3, f: 50 };
  const h = Float32Array.from({ length: 24 }, (_, k) => k / 10);
  const rows: MeasurementRow[] = [
    {
      ts: 1_763_000_000_000,
      feeder: 2,
      phase: 1,
      u: 231.25,
      i: 10.5,
      values,
      pq: { unbalance: 0.5, pst: NaN, plt: 0.25, h },
    },
    { ts: 1_763_000_020_000, feeder: 6, phase: 3, u: NaN, i: 1.25, values, pq: null },
    {
      ts: 1_763_000_040_000,
      feeder: 1,
      phase: 0,
      u: 230,
      i: 1,
      values,
      pq: { unbalance: NaN, pst: 0.5, plt: NaN, h: null },
    },
  ];
  const pq: PqRow[] = [
    { slot: 1_762_999_800_000, feeder: 3, phase: 2, unbalance: 0.75, pst: 0.5, plt: 0.5, h },
    { slot: 1_762_999_800_000, feeder: 3, phase: 1, unbalance: NaN, pst: 1, plt: NaN, h: null },
  ];
  const io = [{ ts: 1_763_000_000_000, module: 1, channel: 2, kind: "DI" as const, value: 1 }];
  const [back] = decodeGroup(encodeGroup([{ cellId: "CÉLL-1", rows, pq, events: [], io }]));
  assert.equal(back!.cellId, "CÉLL-1");
  assert.deepEqual(back!.io, io);
  assert.deepEqual(back!.rows.map((r) => r.pq), rows.map((r) => r.pq));
  assert.deepEqual(back!.pq, pq);
  assert.deepEqual(
    back!.rows.map((r) => [r.ts, r.feeder, r.phase, r.u, r.i, r.values.p, r.values.pf]),
    rows.map((r) => [r.ts, r.feeder, r.phase, r.u, r.i, 1.5, Math.fround(0.98)]),
  );
});

Deno.test("decodeGroup() reads a record of the earlier release (all PQ fields on every row)", () => {
  // Version 1: [u8 1][u32 batches] then per batch [u16 cell][cell][u32 rows] rows of ts f64,
  // feeder u8, phase u8, u, i, p, q, pf, thd_u, thd_i, f, unbalance, pst, plt (f32), harmonics
  // flag u8 (+ 24 f32), then [u32 extras][extras].
  const rowBytes = (harmonics: boolean) => 18 + 9 * 4 + 1 + (harmonics ? 96 : 0);
  const bytes = new Uint8Array(5 + 2 + 2 + 4 + rowBytes(true) + rowBytes(false) + 4);
  const view = new DataView(bytes.buffer);
  let at = 0;
  view.setUint8(at, 1);
  view.setUint32(at + 1, 1, true);
  view.setUint16(at + 5, 2, true);
  bytes.set(new TextEncoder().encode("C1"), at + 7);
  view.setUint32(at + 9, 2, true);
  at = 13;
  const row = (ts: number, phase: number, values: number[], harmonics: boolean) => {
    view.setFloat64(at, ts, true);
    view.setUint8(at + 8, 1);
    view.setUint8(at + 9, phase);
    at += 10;
    for (const v of values) {
      view.setFloat32(at, v, true);
      at += 4;
    }
    view.setUint8(at++, harmonics ? 1 : 0);
    if (harmonics) {
      for (let k = 0; k < 24; k++) view.setFloat32(at + 4 * k, k, true);
      at += 96;
    }
  };
  row(1_000_020_000, 0, [230, 10, 2, 1, 0.9, 2.5, 8, 50, 0.5, 0.25, 0.75], true);
  row(1_000_020_000, 3, [NaN, 3, NaN, NaN, NaN, NaN, NaN, NaN, NaN, NaN, NaN], false);
  view.setUint32(at, 0, true);
  const [batch] = decodeGroup(bytes);
  assert.deepEqual(batch!.rows[0]!.values, {
    p: 2,
    q: 1,
    pf: Math.fround(0.9),
    thd_u: 2.5,
    thd_i: 8,
    f: 50,
  });
  assert.deepEqual(batch!.rows[0]!.pq, {
    unbalance: 0.5,
    pst: 0.25,
    plt: 0.75,
    h: Float32Array.from({ length: 24 }, (_, k) => k),
  });
  assert.equal(batch!.rows[1]!.pq, null, "a row without PQ values");
  assert.deepEqual(batch!.pq, []);
});
