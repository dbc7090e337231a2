/**
 * Voltage events (EN 50160 / IEC 61000-4-30): classification of the event records cells upload
 * and reference detection on Urms(1/2) traces. Pure TypeScript, no I/O.
 *
 * - {@linkcode classifyEvent} validates an uploaded record and says what it is (dip, swell,
 *   short or long interruption, RVC, MSV), with its EN 50160 table cell and a note when the
 *   measured extreme contradicts the cell's own label.
 * - {@linkcode detectEvents} finds polyphase dips, swells and interruptions on a half-cycle
 *   trace; {@linkcode detectRvc} finds rapid voltage changes on 1-s means.
 * - `tables.ts` holds every threshold and table edge ({@linkcode THRESHOLDS},
 *   {@linkcode DIP_ROWS}, ...), with the reason each edge sits where it does.
 *
 * @example
 * ```ts
 * import { classifyEvent } from "./mod.ts";
 *
 * const event = classifyEvent({
 *   id: "evt-000123", type: "DIP", start: "2026-11-22T08:59:41.120Z",
 *   end: "2026-11-22T08:59:41.360Z", start_phase: "L1", end_phase: "L2",
 *   extreme_pct: 62.3, delta_u_pct: null,
 * });
 * event.kind; // "DIP"
 * event.cell; // { table: "DIP", row: "70-40", column: "0.2-0.5s" }
 * ```
 *
 * @module
 */

export {
  type ClassifiedEvent,
  classifyEvent,
  type EventKind,
  type OutsideTable,
  type Reclassification,
} from "./classify.ts";
export {
  DEVICE_EVENT_TYPES,
  type DeviceEventRecord,
  type DeviceEventType,
  EVENT_PHASES,
  type EventPhase,
  EventValidationError,
  type RmsTrace,
  validateEventRecord,
  type ValidEventRecord,
} from "./record.ts";
export { type DetectedEvent, type DetectedKind, detectEvents } from "./detect.ts";
export { detectRvc, type RvcEvent, type RvcOptions } from "./rvc.ts";
export {
  DIP_COLUMNS,
  DIP_ROWS,
  type DipCell,
  dipCell,
  dipColumn,
  type DipColumnId,
  type DipRow,
  dipRow,
  type DipRowId,
  type DurationColumn,
  interruptionKind,
  SWELL_COLUMNS,
  SWELL_ROWS,
  type SwellCell,
  swellCell,
  swellColumn,
  type SwellColumnId,
  type SwellRow,
  swellRow,
  type SwellRowId,
  type TableCell,
  THRESHOLDS,
} from "./tables.ts";
