/**
 * The streaming core as the composition root starts it: the DuckDB time-series store, the
 * measurement store (group commit) that reopens a store DuckDB invalidated, the 10-minute
 * aggregator flushed every 10 s (after the store's folds of protocol v1 PQ values), and the
 * hourly pruning of raw values past their lifetime.
 */
import type { Logger } from "../kernel/mod.ts";
import { Aggregator } from "./ingest/aggregate.ts";
import { Journal } from "./ingest/journal.ts";
import { pruneRaw } from "./ingest/retention.ts";
import { MeasurementStore } from "./ingest/store.ts";
import { openTimeSeriesStore, type TimeSeriesStore } from "./time_series_store.ts";

/** What the streaming core needs from the configuration. */
export interface StreamingCoreOptions {
  dataDir: string;
  duckdbMemoryLimit: string;
  duckdbCheckpointThreshold: string;
  rawLifetimeDays: number;
  logger: Logger;
}

/** The running core: its stores for the modules, and its life cycle. */
export interface StreamingCore {
  timeSeries: TimeSeriesStore;
  measurements: MeasurementStore;
  aggregator: Aggregator;
  name: "core";
  close(): Promise<void>;
}

const FLUSH_MS = 10_000;
const PRUNE_MS = 3_600_000;

/** Opens the stores, recovers the aggregates and starts flushing and pruning. */
export async function startStreamingCore(opts: StreamingCoreOptions): Promise<StreamingCore> {
  const { logger } = opts;
  const timeSeries = await openTimeSeriesStore(
    opts.dataDir,
    opts.duckdbMemoryLimit,
    opts.duckdbCheckpointThreshold,
  );
  const aggregator = new Aggregator(timeSeries.aggregation);
  // Acknowledgements wait for the journal's sync, not for a DuckDB transaction.
  const journal = opts.dataDir === ":memory:"
    ? undefined
    : await Journal.open(`${opts.dataDir}/journal`);
  const measurements = await MeasurementStore.open(timeSeries.writer, {
    journal,
    reopen: async () => {
      logger.warn("Reopening the time-series store after a fatal DuckDB error");
      await timeSeries.reopen();
      // Slots of a batch committed durably but answered 503 are recomputed from the file.
      await aggregator.recover();
    },
  });
  measurements.onSlotsTouched((slots) => aggregator.markDirty(slots));
  measurements.onPqChanged((changes) => aggregator.markPqChanged(changes));
  await aggregator.recover();
  // Folds of closed slots that the journal's replay rebuilt are stored at once.
  await measurements.writeFolds()
    .catch((error) => logger.error("Folding PQ values failed", { error }));
  const aggregation = setInterval(async () => {
    // Folds of protocol v1 PQ values first: the PQ rollups of this flush then include them.
    await measurements.writeFolds()
      .catch((error) => logger.error("Folding PQ values failed", { error }));
    await aggregator.flush().catch((error) => logger.error("Aggregation failed", { error }));
  }, FLUSH_MS);
  const prune = () =>
    pruneRaw(timeSeries.connection, opts.rawLifetimeDays)
      .then((rows) => rows && logger.info("Raw data past its lifetime deleted", { rows }))
      .catch((error) => logger.error("Raw data pruning failed", { error }));
  await prune();
  const retention = setInterval(prune, PRUNE_MS);
  return {
    name: "core",
    timeSeries,
    measurements,
    aggregator,
    async close() {
      clearInterval(aggregation);
      clearInterval(retention);
      // What DuckDB cannot take now stays in the journal for the next start.
      await measurements.flush().catch((error) =>
        logger.warn("Journaled batches left for the next start", { error })
      );
      // Folds of open slots stay in the journal (folded again at the next start).
      await measurements.writeFolds().catch(() => undefined);
      measurements.close();
      journal?.close();
      await aggregator.flush().catch(() => undefined);
      await timeSeries.close();
    },
  };
}
