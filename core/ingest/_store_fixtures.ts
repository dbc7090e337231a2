/** Shared by the store's and the aggregator's unit tests: a store on a DuckDB file of its own. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { Aggregator } from "./aggregate.ts";
import { MeasurementStore } from "./store.ts";
import type { MeasurementRow } from "./validate.ts";
import type { EventRow } from "./validate_extras.ts";
import { releaseNativeHandles } from "../time_series_store.ts";

export const T0 = Date.parse("2026-11-16T00:00:00Z");

/** A 20-s row of feeder `feeder`, phase `phase`: voltage `u`, current 10 A, 50 Hz. */
export function row(ts: number, u: number, phase = 0, feeder = 1): MeasurementRow {
  const values = {
    p: NaN,
    q: NaN,
    pf: NaN,
    thd_u: NaN,
    thd_i: NaN,
    f: 50,
  };
  return { ts, feeder, phase, u, i: 10, values, pq: null };
}

/** A dip on L1 to 70 % from `start` (epoch ms), `durationMs` long. */
export function dip(id: string, start: number, durationMs = 200): EventRow {
  return {
    id,
    type: "DIP",
    start,
    end: start + durationMs,
    startPhase: "L1",
    endPhase: "L1",
    extremePct: 70,
    deltaUPct: null,
    trace: null,
    kind: "DIP",
    tableCell: "80-70/200-500ms",
  };
}

/**
 * Runs `fn` with a store, its aggregator and a reader on a fresh DuckDB file (and the store's and
 * the aggregator's own connections, for what only they see: their temporary tables).
 */
export async function withStore(
  fn: (
    store: MeasurementStore,
    agg: Aggregator,
    q: (sql: string) => Promise<unknown[][]>,
    reader: DuckDBConnection,
    own: { writer: DuckDBConnection; aggregation: DuckDBConnection },
  ) => Promise<void>,
) {
  const dir = await mkdtemp(join(tmpdir(), "gw-store-"));
  const instance = await DuckDBInstance.create(join(dir, "t.duckdb"));
  // One connection each for the writer, the aggregator and readers, as the platform has them:
  // a connection runs one statement at a time, and a reader must not land inside a group.
  const [writer, aggregation, reader] = [
    await instance.connect(),
    await instance.connect(),
    await instance.connect(),
  ];
  try {
    const store = await MeasurementStore.open(writer);
    const agg = new Aggregator(aggregation);
    store.onSlotsTouched((slots) => agg.markDirty(slots));
    const q = async (sql: string) => (await reader.runAndReadAll(sql)).getRows() as unknown[][];
    await fn(store, agg, q, reader, { writer, aggregation });
  } finally {
    for (const c of [writer, aggregation, reader]) c.closeSync();
    instance.closeSync();
    await releaseNativeHandles();
    await rm(dir, { recursive: true, force: true });
  }
}
