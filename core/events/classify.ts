/**
 * Classification of an uploaded event record: the platform trusts the measured extreme over the
 * type the cell put on it, places dips and swells in their EN 50160 table cell and splits
 * interruptions into short and long.
 *
 * @module
 */

import {
  type DeviceEventRecord,
  type DeviceEventType,
  type EventPhase,
  EventValidationError,
  validateEventRecord,
  type ValidEventRecord,
} from "./record.ts";
import { dipCell, interruptionKind, swellCell, type TableCell, THRESHOLDS } from "./tables.ts";

/** What the platform says an event is. */
export type EventKind =
  | "DIP"
  | "SWELL"
  | "INTERRUPTION_SHORT"
  | "INTERRUPTION_LONG"
  | "RVC"
  | "MSV";

/** Set when the measured extreme contradicts the type the cell reported. */
export interface Reclassification {
  /** The type the cell reported. */
  from: DeviceEventType;
  note: string;
}

/** Set for a dip or swell that lasts longer than its table (60 s). */
export interface OutsideTable {
  table: "DIP" | "SWELL";
  note: string;
}

/** A validated, classified event (snake_case: it is stored and served as is). */
export interface ClassifiedEvent {
  id: string;
  kind: EventKind;
  device_type: DeviceEventType;
  /** UTC ISO-8601 with milliseconds. */
  start: string;
  end: string;
  duration_ms: number;
  start_phase: EventPhase | null;
  end_phase: EventPhase | null;
  /** Residual or peak voltage in % of Uref; from the RMS trace when the cell sent none. */
  extreme_pct: number | null;
  delta_u_pct: number | null;
  /** The table cell of a dip or swell that fits its table; `null` otherwise. */
  cell: TableCell | null;
  outside_table: OutsideTable | null;
  reclassified: Reclassification | null;
}

type Family = "DIP" | "SWELL" | "INTERRUPTION" | "RVC" | "MSV";

function extremeFromTrace(record: ValidEventRecord): number | null {
  const values = record.rms_trace?.values_pct;
  const lowest = record.type === "DIP" || record.type === "INTERRUPTION";
  if (!values || !(lowest || record.type === "SWELL")) return null;
  let extreme = lowest ? Infinity : -Infinity;
  for (const v of values) extreme = lowest ? Math.min(extreme, v) : Math.max(extreme, v);
  return extreme;
}

/**
 * The family the extreme voltage puts the event in; `null` inside the 90..110 % band.
 *
 * Below 5 % is an interruption here although the dip table has a `<5` row: IEC 61000-4-30 keeps
 * that row for a polyphase dip where one phase drops below 5 % while another stays above, but a
 * record carries a single extreme for all phases, so the platform cannot tell that case from a
 * real interruption and takes the reading EN 50160 gives a supply below 5 %.
 */
function familyOfExtreme(extremePct: number): Family | null {
  if (extremePct < THRESHOLDS.interruptionPct) return "INTERRUPTION";
  if (extremePct < THRESHOLDS.dipStartPct) return "DIP";
  if (extremePct > THRESHOLDS.swellStartPct) return "SWELL";
  return null;
}

function measuredFamily(record: ValidEventRecord, extremePct: number | null): Family {
  const { id, type } = record;
  if (type === "MSV") return "MSV";
  if (type === "RVC") {
    if (record.delta_u_pct === null) {
      throw new EventValidationError(id, "delta_u_pct", "delta_u_pct is missing for an RVC");
    }
    // IEC 61000-4-30: a change that crosses a dip or swell threshold is that event, not an RVC.
    return extremePct === null ? "RVC" : familyOfExtreme(extremePct) ?? "RVC";
  }
  if (extremePct === null) {
    throw new EventValidationError(
      id,
      "extreme_pct",
      `extreme_pct is missing and there is no rms_trace to take it from (needed for a ${type})`,
    );
  }
  const family = familyOfExtreme(extremePct);
  if (family === null) {
    throw new EventValidationError(
      id,
      "extreme_pct",
      `extreme_pct ${extremePct} of a ${type} lies between the ${THRESHOLDS.dipStartPct} % dip ` +
        `and ${THRESHOLDS.swellStartPct} % swell thresholds`,
    );
  }
  return family;
}

function reclassification(
  from: DeviceEventType,
  family: Family,
  extremePct: number | null,
): Reclassification | null {
  if (from === family || extremePct === null) return null;
  const u = `extreme_pct ${extremePct}`;
  if (family === "INTERRUPTION") {
    return {
      from,
      note: `${u} is below the ${THRESHOLDS.interruptionPct} % interruption threshold`,
    };
  }
  if (family === "SWELL") {
    return { from, note: `${u} is above the ${THRESHOLDS.swellStartPct} % swell threshold` };
  }
  const notInterrupted = from === "INTERRUPTION"
    ? ` but not below the ${THRESHOLDS.interruptionPct} % interruption threshold`
    : "";
  return {
    from,
    note: `${u} is below the ${THRESHOLDS.dipStartPct} % dip threshold${notInterrupted}`,
  };
}

function outsideTable(table: "DIP" | "SWELL", durationMs: number): OutsideTable {
  const name = table === "DIP" ? "dip" : "swell";
  return {
    table,
    note: `lasts ${durationMs / 1000} s, longer than the ${
      THRESHOLDS.tableMaxMs / 1000
    } s the ${name} table holds (a slow voltage variation, not a ${name})`,
  };
}

/**
 * Validates and classifies an event record a cell uploaded.
 *
 * The measured extreme decides: below 5 % it is an interruption (short up to and including
 * 3 min, long beyond), below 90 % a dip, above 110 % a swell, whatever the cell called it; the
 * disagreement is kept in `reclassified`. An RVC stays an RVC only while its extreme remains
 * inside 90..110 %. Dips and swells up to 60 s get their table cell; longer ones get
 * `outside_table`. Throws {@linkcode EventValidationError} for an inconsistent record.
 *
 * @example
 * ```ts
 * const event = classifyEvent({
 *   id: "evt-1", type: "DIP", start: "2026-11-22T08:59:41.120Z",
 *   end: "2026-11-22T08:59:41.360Z", start_phase: "L1", end_phase: "L2", extreme_pct: 62.3,
 * });
 * event.cell; // { table: "DIP", row: "70-40", column: "0.2-0.5s" }
 * ```
 */
export function classifyEvent(record: DeviceEventRecord): ClassifiedEvent {
  const valid = validateEventRecord(record);
  const durationMs = valid.end_ms - valid.start_ms;
  const extremePct = valid.extreme_pct ?? extremeFromTrace(valid);
  const family = measuredFamily(valid, extremePct);
  if ((family === "DIP" || family === "SWELL") && durationMs > THRESHOLDS.dipMaxPlausibleMs) {
    throw new EventValidationError(
      valid.id,
      "end",
      `a ${family} lasting ${durationMs} ms (more than 1 day) is not plausible`,
    );
  }
  const kind: EventKind = family === "INTERRUPTION" ? interruptionKind(durationMs) : family;
  // measuredFamily() guarantees an extreme for dips and swells.
  const u = extremePct ?? NaN;
  const cell = family === "DIP"
    ? dipCell(u, durationMs)
    : family === "SWELL"
    ? swellCell(u, durationMs)
    : null;
  const outside = cell === null && (family === "DIP" || family === "SWELL")
    ? outsideTable(family, durationMs)
    : null;
  return {
    id: valid.id,
    kind,
    device_type: valid.type,
    start: new Date(valid.start_ms).toISOString(),
    end: new Date(valid.end_ms).toISOString(),
    duration_ms: durationMs,
    start_phase: valid.start_phase,
    end_phase: valid.end_phase,
    extreme_pct: extremePct,
    delta_u_pct: valid.delta_u_pct,
    cell,
    outside_table: outside,
    reclassified: reclassification(valid.type, family, extremePct),
  };
}
