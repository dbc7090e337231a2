import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { row, T0 } from "./_store_fixtures.ts";
import { MeasurementStore } from "./store.ts";
import { releaseNativeHandles } from "../time_series_store.ts";

Deno.test("MeasurementStore keeps the newest p, q and f per series, and loads them from its file", async () => {
  const dir = await mkdtemp(join(tmpdir(), "gw-latest-"));
  const instance = await DuckDBInstance.create(join(dir, "t.duckdb"));
  const [writer, other] = [await instance.connect(), await instance.connect()];
  try {
    const store = await MeasurementStore.open(writer);
    const older = row(T0, 229);
    const newer = row(T0 + 20_000, 230);
    Object.assign(older.values, { p: 1, q: 1, f: 50 });
    Object.assign(newer.values, { p: 4.5, q: -1.25, f: 49.5 });
    await store.append("C1", { measurements: [newer, older] });
    const id = store.seriesId("C1", 1, 0)!;
    const read = (s: MeasurementStore) => [s.latest.p(id), s.latest.q(id), s.latest.f(id)];
    assert.deepEqual(read(store), [4.5, -1.25, 49.5]);
    // A store opened over the same file (the platform's restart) loads them.
    const reopened = await MeasurementStore.open(other);
    assert.deepEqual(read(reopened), [4.5, -1.25, 49.5]);
    assert.equal(reopened.latest.u(id), 230);
  } finally {
    for (const c of [writer, other]) c.closeSync();
    instance.closeSync();
    await releaseNativeHandles();
    await rm(dir, { recursive: true, force: true });
  }
});
