import assert from "node:assert/strict";
import { mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { crc32, Journal } from "./journal.ts";
import { decodeGroup, encodeGroup } from "./journal_codec.ts";
import type { MeasurementRow } from "./validate.ts";

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

Deno.test("encodeGroup() and decodeGroup() round-trip rows (float32), harmonics, events and I/O", () => {
  const values = {
    p: 1.5,
    q: NaN,
    pf: 0.98,
    thd_u: 2,
    thd_i: 3,
    f: 50,
    unbalance: 0.4,
    pst: NaN,
    plt: 0.3,
  };
  const h = Float32Array.from({ length: 24 }, (_, k) => k / 10);
  const rows: MeasurementRow[] = [
    { ts: 1_763_000_000_000, feeder: 2, phase: 1, u: 231.25, i: 10.5, values, h },
    { ts: 1_763_000_020_000, feeder: 6, phase: 3, u: NaN, i: 1.25, values, h: null },
  ];
  const io = [{ ts: 1_763_000_000_000, module: 1, channel: 2, kind: "DI" as const, value: 1 }];
  const [back] = decodeGroup(encodeGroup([{ cellId: "CÉLL-1", rows, events: [], io }]));
  assert.equal(back!.cellId, "CÉLL-1");
  assert.deepEqual(back!.io, io);
  assert.equal(back!.rows.length, 2);
  assert.deepEqual(back!.rows[0]!.h, h);
  assert.equal(back!.rows[1]!.h, null);
  assert.deepEqual(
    back!.rows.map((r) => [r.ts, r.feeder, r.phase, r.u, r.i, r.values.p, r.values.pf]),
    [[1_763_000_000_000, 2, 1, 231.25, 10.5, 1.5, Math.fround(0.98)], [
      1_763_000_020_000,
      6,
      3,
      NaN,
      1.25,
      1.5,
      Math.fround(0.98),
    ]],
  );
});
