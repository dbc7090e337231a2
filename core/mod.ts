/**
 * @module
 * Streaming analytics core: the DuckDB time-series store, ingestion of cell batches (validation,
 * idempotent durable writes), 10-minute aggregation, grid status, EN 50160 compliance and
 * voltage-event classification and detection.
 * Imports the kernel only.
 */
export {
  openTimeSeriesStore,
  releaseNativeHandles,
  type TimeSeriesStore,
} from "./time_series_store.ts";
export { ingestBatch, type IngestLimits, type IngestOutcome } from "./ingest/ingest.ts";
export { type AppendResult, MeasurementStore, SLOT_MS, type ValidBatch } from "./ingest/store.ts";
export { Aggregator, RECLOSE_MS, SLOT_GRACE_MS } from "./ingest/aggregate.ts";
export { type MeasurementRow, PHASES, type Rejection } from "./ingest/validate.ts";
export * from "./events/mod.ts";
export {
  countAlarms,
  evaluateGridStatus,
  type FeederTopology,
  type GridState,
  liveUntil,
  type NodeStatus,
  type NodeTopology,
  STATES,
  type Thresholds,
  worst,
} from "./monitoring/grid_status.ts";
export { LatestValues } from "./monitoring/latest.ts";
export * from "./monitoring/custom_monitoring.ts";
export {
  type ComplianceCounts,
  ComplianceError,
  type ComplianceInput,
  type ComplianceResult,
  deriveLimitSet,
  EN50160_LV,
  evaluateCompliance,
  type IsoWeek,
  isoWeekOf,
  isoWeekRange,
  isoWeeksInYear,
  type LimitOverrides,
  type LimitSet,
  limitSetProblems,
  MAX_REPORT_DAYS,
  type ParameterCompliance,
  type ParameterId,
  PeriodError,
  type ReportPeriod,
  validateLimitSet,
  validateReportPeriod,
} from "./en50160/mod.ts";
export {
  loadComplianceInput,
  loadComplianceInputs,
  nodeCompliance,
  type NodeSeries,
} from "./quality/load.ts";
export { evaluateGridWeek, type GridEvaluation, type GridOptions } from "./quality/grid.ts";
export {
  answerRecordingCommands,
  type Batch,
  type CommandOutcome,
  type FeederKind,
  generateBatch,
  generateRange,
  type LoadProfile,
  type RecordingBehaviour,
  runLive,
  runRecordingCells,
  type SendError,
  type SimCell,
  type SimFeeder,
  type SimRecordingFile,
  simulatedRecording,
} from "./simulator/mod.ts";
export { pruneRaw } from "./ingest/retention.ts";
export { SLOT_TABLES } from "./ingest/schema.ts";
export { startStreamingCore, type StreamingCore, type StreamingCoreOptions } from "./streaming.ts";
export * from "./mapping/mod.ts";
export { columnRow, storeSimulatedRange } from "./ingest/simulated.ts";
export * from "./statistics/mod.ts";
