/**
 * @module
 * Streaming analytics core: the DuckDB time-series store, ingestion of cell batches (validation,
 * idempotent durable writes), 10-minute aggregation, voltage-event classification and detection.
 * Imports the kernel only.
 */
export { openTimeSeriesStore, type TimeSeriesStore } from "./time_series_store.ts";
export { ingestBatch, type IngestLimits, type IngestOutcome } from "./ingest/ingest.ts";
export { type AppendResult, MeasurementStore, SLOT_MS, type ValidBatch } from "./ingest/store.ts";
export { Aggregator, SLOT_GRACE_MS } from "./ingest/aggregate.ts";
export { type MeasurementRow, PHASES, type Rejection } from "./ingest/validate.ts";
export * from "./events/mod.ts";
export {
  countAlarms,
  evaluateGridStatus,
  type FeederTopology,
  type GridState,
  type NodeStatus,
  type NodeTopology,
  STATES,
  type Thresholds,
  worst,
} from "./monitoring/grid_status.ts";
export { LatestValues } from "./monitoring/latest.ts";
