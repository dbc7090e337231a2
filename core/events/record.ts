/**
 * The event record a cell uploads (`events[]` of ingestion protocol v1) and its validation.
 * Field names stay snake_case: they are the wire names.
 *
 * @module
 */

/** Event types a cell may report. */
export const DEVICE_EVENT_TYPES = ["DIP", "SWELL", "INTERRUPTION", "RVC", "MSV"] as const;
/** An event type a cell may report. */
export type DeviceEventType = typeof DEVICE_EVENT_TYPES[number];

/** Phases that carry voltage (N carries current only). */
export const EVENT_PHASES = ["L1", "L2", "L3"] as const;
/** A phase that carries voltage. */
export type EventPhase = typeof EVENT_PHASES[number];

/** Urms(1/2) samples around the event, as uploaded. */
export interface RmsTrace {
  interval_ms: number;
  values_pct: readonly number[];
}

/**
 * An event as a cell uploads it. Strings are typed loosely on purpose: the record comes off the
 * wire and {@linkcode validateEventRecord} is what turns it into trusted values.
 */
export interface DeviceEventRecord {
  id: string;
  type: string;
  /** UTC ISO-8601 with milliseconds (`2026-11-22T08:59:41.120Z`), or epoch milliseconds. */
  start: string | number;
  end: string | number;
  /** Optional on the wire (the ingestion module accepts records without phases). */
  start_phase?: string | null;
  end_phase?: string | null;
  /** Residual (dip, interruption) or peak (swell) voltage in % of Uref. */
  extreme_pct?: number | null;
  /** Voltage change in % of Udin (RVC; optional for other types). */
  delta_u_pct?: number | null;
  rms_trace?: RmsTrace | null;
}

/** A record whose fields have been checked and parsed. */
export interface ValidEventRecord {
  id: string;
  type: DeviceEventType;
  start_ms: number;
  end_ms: number;
  start_phase: EventPhase | null;
  end_phase: EventPhase | null;
  extreme_pct: number | null;
  delta_u_pct: number | null;
  rms_trace: RmsTrace | null;
}

/** A record that cannot be classified; `field` names the offending wire field. */
export class EventValidationError extends Error {
  override name = "EventValidationError";
  readonly eventId: string;
  readonly field: string;

  constructor(eventId: string, field: string, detail: string) {
    super(`Cannot classify event ${eventId}: ${detail}`);
    this.eventId = eventId;
    this.field = field;
  }
}

// Protocol v1: UTC with a `Z`, milliseconds optional (a cell on whole seconds is still valid).
const UTC_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/;
const MAX_PCT = 200;

function isFiniteNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

function parseTime(id: string, field: "start" | "end", value: unknown): number {
  const ms = typeof value === "number" && Number.isInteger(value)
    ? value
    : typeof value === "string" && UTC_ISO.test(value)
    ? Date.parse(value)
    : NaN;
  if (!Number.isFinite(ms)) {
    throw new EventValidationError(
      id,
      field,
      `${field} is not a UTC ISO-8601 time or epoch ms: ${JSON.stringify(value)}`,
    );
  }
  return ms;
}

function parsePhase(
  id: string,
  field: "start_phase" | "end_phase",
  value: unknown,
): EventPhase | null {
  if (value === null || value === undefined) return null;
  if (!(EVENT_PHASES as readonly unknown[]).includes(value)) {
    throw new EventValidationError(
      id,
      field,
      `${field} ${JSON.stringify(value)} is not L1, L2 or L3`,
    );
  }
  return value as EventPhase;
}

function parsePct(
  id: string,
  field: "extreme_pct" | "delta_u_pct",
  value: unknown,
  min: number,
): number | null {
  if (value === null || value === undefined) return null;
  if (!isFiniteNumber(value)) {
    throw new EventValidationError(id, field, `${field} is not a finite number`);
  }
  if (value < min || value > MAX_PCT) {
    throw new EventValidationError(id, field, `${field} ${value} is outside ${min}..${MAX_PCT} %`);
  }
  return value;
}

function parseTrace(id: string, value: unknown): RmsTrace | null {
  if (value === null || value === undefined) return null;
  const trace = value as Partial<RmsTrace>;
  if (!isFiniteNumber(trace.interval_ms) || trace.interval_ms <= 0) {
    throw new EventValidationError(
      id,
      "rms_trace",
      "rms_trace.interval_ms is not a positive number",
    );
  }
  const values = trace.values_pct;
  if (!Array.isArray(values)) {
    throw new EventValidationError(id, "rms_trace", "rms_trace.values_pct is not a list");
  }
  // An empty trace tells nothing, but it is no reason to lose the event: treat it as absent.
  if (values.length === 0) return null;
  values.forEach((v: unknown, i) => {
    if (!isFiniteNumber(v) || v < 0 || v > MAX_PCT) {
      throw new EventValidationError(
        id,
        "rms_trace",
        `rms_trace.values_pct[${i}] is not a number in 0..${MAX_PCT} %`,
      );
    }
  });
  return { interval_ms: trace.interval_ms, values_pct: values };
}

/**
 * Checks a record field by field and parses its times. Throws {@linkcode EventValidationError}
 * for the first problem found.
 */
export function validateEventRecord(record: DeviceEventRecord): ValidEventRecord {
  const id = typeof record.id === "string" && record.id.trim() !== "" ? record.id : "(no id)";
  if (id === "(no id)") throw new EventValidationError(id, "id", "id is missing");
  const type = record.type as DeviceEventType;
  if (!DEVICE_EVENT_TYPES.includes(type)) {
    throw new EventValidationError(
      id,
      "type",
      `type ${JSON.stringify(record.type)} is unknown (expected ${DEVICE_EVENT_TYPES.join(", ")})`,
    );
  }
  const startMs = parseTime(id, "start", record.start);
  const endMs = parseTime(id, "end", record.end);
  if (endMs < startMs) throw new EventValidationError(id, "end", "end is before start");
  if (endMs === startMs) {
    throw new EventValidationError(id, "end", "end equals start (an event lasts at least 1 ms)");
  }
  return {
    id,
    type,
    start_ms: startMs,
    end_ms: endMs,
    start_phase: parsePhase(id, "start_phase", record.start_phase),
    end_phase: parsePhase(id, "end_phase", record.end_phase),
    extreme_pct: parsePct(id, "extreme_pct", record.extreme_pct, 0),
    delta_u_pct: parsePct(id, "delta_u_pct", record.delta_u_pct, -MAX_PCT),
    rms_trace: parseTrace(id, record.rms_trace),
  };
}
