/**
 * The time-series store: one DuckDB file in the data directory, owned by the streaming core.
 * The ingestion writer has a connection of its own, so that its open batch transaction never
 * absorbs the statements of readers and background jobs, which use `connection`.
 */
import { mkdir } from "node:fs/promises";
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";

/** An open DuckDB file. */
export interface TimeSeriesStore {
  readonly path: string;
  /** For queries, aggregation and maintenance. */
  readonly connection: DuckDBConnection;
  /** For the measurement store's batch transactions only. */
  readonly writer: DuckDBConnection;
  /** Flushes the WAL into the file and closes; safe to call twice. */
  close(): Promise<void>;
}

/** Opens (creating when absent) `${dataDir}/timeseries.duckdb`, or an in-memory store for ":memory:". */
export async function openTimeSeriesStore(
  dataDir: string,
  memoryLimit = "512MB",
): Promise<TimeSeriesStore> {
  let path = ":memory:";
  if (dataDir !== ":memory:") {
    await mkdir(dataDir, { recursive: true });
    path = `${dataDir}/timeseries.duckdb`;
  }
  // DuckDB would otherwise size its buffer pool at 80 % of the machine's memory: bound it so one
  // container stays predictable (aggregates and scans spill to disk beyond it).
  const instance = await DuckDBInstance.create(path, { memory_limit: memoryLimit });
  const connection = await instance.connect();
  const writer = await instance.connect();
  let closed = false;
  return {
    path,
    connection,
    writer,
    close: async () => {
      if (closed) return;
      closed = true;
      if (path !== ":memory:") await connection.run("CHECKPOINT");
      writer.closeSync();
      connection.closeSync();
      instance.closeSync();
    },
  };
}
