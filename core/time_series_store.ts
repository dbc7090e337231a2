/**
 * The time-series store: one DuckDB file in the data directory. The streaming core owns it
 * and its tables; later issues add ingestion, aggregates and evaluations on this connection.
 */
import { mkdir } from "node:fs/promises";
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";

/** An open DuckDB file with one connection for the process. */
export interface TimeSeriesStore {
  readonly path: string;
  readonly connection: DuckDBConnection;
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
  let closed = false;
  return {
    path,
    connection,
    close: async () => {
      if (closed) return;
      closed = true;
      if (path !== ":memory:") await connection.run("CHECKPOINT");
      connection.closeSync();
      instance.closeSync();
    },
  };
}
