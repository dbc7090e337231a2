import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
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
