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
  /**
   * Closes the instance and opens the file again (DuckDB replays its WAL) after a FATAL error
   * invalidated it; the three connections above follow the new instance. Throws while the file
   * cannot be opened (e.g. the disk is still full).
   */
  reopen(): Promise<void>;
  /**
   * A new connection on the current instance for a long job of its own (a data export), so
   * that its statements and their interrupt never touch another reader's query; the caller
   * closes it, once.
   */
  connect(): Promise<DuckDBConnection>;
  /** Flushes the WAL into the file and closes; safe to call twice. */
  close(): Promise<void>;
}

/** Whether DuckDB invalidated its instance: every statement fails until it is reopened. */
export function isFatal(error: unknown): boolean {
  return error instanceof Error &&
    /^FATAL Error|database has been invalidated/.test(error.message);
}

/** A connection handle that always acts on the current connection of a reopened instance. */
function follow(current: () => DuckDBConnection): DuckDBConnection {
  return new Proxy({} as DuckDBConnection, {
    get(_, key) {
      const target = current();
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
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
  const open = async () => {
    // DuckDB would otherwise size its buffer pool at 80 % of the machine's memory: bound it so
    // one container stays predictable (aggregates and scans spill to disk beyond it).
    const instance = await DuckDBInstance.create(path, {
      memory_limit: memoryLimit,
      checkpoint_threshold: checkpointThreshold,
    });
    return {
      instance,
      connection: await instance.connect(),
      writer: await instance.connect(),
      aggregation: await instance.connect(),
    };
  };
  let current = await open();
  const shut = async () => {
    const { writer, aggregation, connection, instance } = current;
    for (const handle of [writer, aggregation, connection, instance]) {
      try {
        handle.closeSync();
      } catch {
        // closed already: a reopen that failed (the disk still full) is tried again
      }
    }
    await releaseNativeHandles();
  };
  let closed = false;
  return {
    path,
    connection: follow(() => current.connection),
    writer: follow(() => current.writer),
    aggregation: follow(() => current.aggregation),
    connect: () => current.instance.connect(),
    reopen: async () => {
      await shut();
      current = await open();
    },
    close: async () => {
      if (closed) return;
      closed = true;
      if (path !== ":memory:") {
        // An invalidated instance cannot checkpoint: its WAL is replayed at the next start.
        await current.connection.run("CHECKPOINT").catch((error) => {
          if (!isFatal(error)) throw error;
        });
      }
      await shut();
    },
  };
}

/**
 * Lets the runtime finalize DuckDB's garbage native handles (data chunks, results) now, while
 * the isolate is alive. Deno 2.9.5 deferred Node-API finalizers to the event loop, and a handle
 * whose finalizer was still pending when an isolate was torn down (each `deno test` module has
 * its own) crashed the process in the data chunk's finalizer (denoland/deno#36538, fixed in
 * 2.9.6; kept, as it costs a few milliseconds per test module). With
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
