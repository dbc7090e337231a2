import assert from "node:assert/strict";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openTimeSeriesStore } from "./time_series_store.ts";

Deno.test("openTimeSeriesStore() keeps written rows across close and reopen of the file", async () => {
  const dir = await mkdtemp(join(tmpdir(), "gw-duck-"));
  try {
    const first = await openTimeSeriesStore(dir);
    await first.connection.run("CREATE TABLE m (ts TIMESTAMP, v DOUBLE)");
    await first.connection.run("INSERT INTO m VALUES ('2026-01-01 00:00:00', 230.5)");
    await first.close();
    await first.close(); // a second close is harmless (shutdown paths may overlap)
    const second = await openTimeSeriesStore(dir);
    const rows = (await second.connection.runAndReadAll("SELECT v FROM m")).getRows();
    assert.deepEqual(rows, [[230.5]]);
    assert.equal(second.path, join(dir, "timeseries.duckdb"));
    await second.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

Deno.test("openTimeSeriesStore() opens an in-memory store for ':memory:'", async () => {
  const store = await openTimeSeriesStore(":memory:");
  const rows = (await store.connection.runAndReadAll("SELECT 1 + 1")).getRows();
  assert.deepEqual(rows, [[2]]);
  await store.close();
});

Deno.test("openTimeSeriesStore() with a tiny checkpoint threshold checkpoints after every commit", async () => {
  const walBytes = async (threshold: string) => {
    const dir = await mkdtemp(join(tmpdir(), "gridwatch-ts-"));
    try {
      const store = await openTimeSeriesStore(dir, "256MB", threshold);
      await store.writer.run("CREATE TABLE m (v INTEGER, note VARCHAR)");
      await store.writer.run("INSERT INTO m SELECT range, repeat('x', 100) FROM range(10000)");
      const size = await stat(`${store.path}.wal`).then((s) => s.size, () => 0);
      await store.close();
      return size;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
  // The default keeps the commit in the WAL; 1 KB moves it into the file at once (the crash
  // test relies on this to kill the server around checkpoints).
  assert.ok(await walBytes("16MB") > 100_000);
  assert.equal(await walBytes("1KB"), 0);
});
