/**
 * @module
 * The deterministic cell simulator: realistic 20-s measurements of simulated cells (daily load
 * curves, PV at noon, EV charging in the evening, boilers at night, voltage drop along the LV
 * grid, harmonics, flicker, dips, swells, interruptions, rapid voltage changes, offline cells,
 * wrong phase mappings) in the ingestion protocol's batch shape, and the senders that post them
 * to a platform. Same (cell, window, seed), same batch: tests and the demo use fixed seeds.
 *
 * ```ts
 * import { generateBatch, type SimCell } from "./mod.ts";
 * declare const cell: SimCell;
 * const batch = generateBatch(cell, Date.UTC(2026, 10, 22, 9, 0, 0), 42);
 * ```
 */

export type {
  FeederKind,
  LoadProfile,
  RecordingBehaviour,
  SimCell,
  SimFeeder,
} from "./topology.ts";
export { parseSimCells, SIM_CELL_LIMITS } from "./topology.ts";
export type {
  Batch,
  DeviceStatus,
  GpsFix,
  IoRecord,
  LinePhase,
  Measurement,
  Phase,
  PqRecord,
  ProtocolVersion,
  SignalQuality,
  VoltageEvent,
  VoltageEventType,
} from "./protocol.ts";
export { PROTOCOL_RANGES, WINDOW_MS } from "./protocol.ts";
export {
  generateBatch,
  generateColumns,
  generateRange,
  PQ_SLOT_MS,
  pqDelayWindows,
  pqSlotSentAt,
  slotPqRecords,
  type WindowRecords,
} from "./generate.ts";
export { DevicePqFold } from "./pq_record.ts";
export { isOffline } from "./_context.ts";
export type { MeasurementColumns } from "./columns.ts";
export { allocateColumns, PHASE_CODES, PHASE_NAMES, rowsPerWindow } from "./columns.ts";
export type {
  BackfillOptions,
  RetryOptions,
  RunLiveOptions,
  SendError,
  SendOptions,
  SendReport,
  SendStats,
} from "./run.ts";
export { runBackfill, runLive } from "./run.ts";
export {
  answerRecordingCommands,
  type CommandOutcome,
  runRecordingCells,
  type SimRecordingFile,
  simulatedRecording,
} from "./recordings.ts";
export { EVENT_RATES } from "./voltage_events.ts";
export { SIM_FIRMWARE, SIM_IO } from "./device.ts";
export {
  civilTime,
  loadFraction,
  pvFraction,
  SIM_LOCATION,
  type Sky,
  skyOfDay,
} from "./profiles.ts";
