/**
 * The time-series store: one DuckDB file in the data directory, owned by the streaming core.
 * The ingestion writer and the aggregator have a connection each, so that their open
 * transactions never absorb the statements of readers and other jobs, which use `connection`.
 */
import { mkdir } from "node:fs/promises";
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";

/** An open DuckDB file. */
export interface TimeSeriesStore {
  readonly path: string;
  /** For queries and maintenance. */
  readonly connection: DuckDBConnection;
  /** For the measurement store's batch transactions only. */
  readonly writer: DuckDBConnection;
  /** For the aggregator's transactions only, so that no reader's query lands inside one. */
  readonly aggregation: DuckDBConnection;
  /** Flushes the WAL into the file and closes; safe to call twice. */
  close(): Promise<void>;
}

/** Opens (creating when absent) `${dataDir}/timeseries.duckdb`, or an in-memory store for ":memory:". */
export async function openTimeSeriesStore(
  dataDir: string,
  memoryLimit = "512MB",
  checkpointThreshold = "16MB",
): Promise<TimeSeriesStore> {
  let path = ":memory:";
  if (dataDir !== ":memory:") {
    await mkdir(dataDir, { recursive: true });
    path = `${dataDir}/timeseries.duckdb`;
  }
  // DuckDB would otherwise size its buffer pool at 80 % of the machine's memory: bound it so one
  // container stays predictable (aggregates and scans spill to disk beyond it).
  const instance = await DuckDBInstance.create(path, {
    memory_limit: memoryLimit,
    checkpoint_threshold: checkpointThreshold,
  });
  const connection = await instance.connect();
  const writer = await instance.connect();
  const aggregation = await instance.connect();
  let closed = false;
  return {
    path,
    connection,
    writer,
    aggregation,
    close: async () => {
      if (closed) return;
      closed = true;
      if (path !== ":memory:") await connection.run("CHECKPOINT");
      writer.closeSync();
      aggregation.closeSync();
      connection.closeSync();
      instance.closeSync();
      await releaseNativeHandles();
    },
  };
}

/**
 * Lets the runtime finalize DuckDB's garbage native handles (data chunks, results) now, while
 * the isolate is alive. Deno 2.9.5 defers Node-API finalizers to the event loop, and a handle
 * whose finalizer is still pending when an isolate is torn down (each `deno test` module has
 * its own) crashes the process in the data chunk's finalizer (denoland/deno#36538; Deno 2.9.6,
 * which fixes it, has no platform package on this machine's npm mirror). With
 * `--v8-flags=--expose-gc` (as scripts/test.sh runs the tests) it collects first; without, it
 * only yields to the event loop. Call it after closing an instance.
 */
export async function releaseNativeHandles(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let turn = 0; turn < 3; turn++) {
    gc?.();
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}
