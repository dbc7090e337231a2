/**
 * Validation of the device-detected voltage events and I/O states of a batch
 * (docs/ingestion-protocol.md). Records are refused one by one, like measurements.
 */
import { classifyEvent, type DeviceEventRecord, EventValidationError } from "../events/mod.ts";
import { parseUtc, PROTOCOL_LIMITS, type Rejection, type ValidationContext } from "./validate.ts";

export const EVENT_TYPES = ["DIP", "SWELL", "INTERRUPTION", "RVC", "MSV"] as const;
export type EventType = (typeof EVENT_TYPES)[number];
const PHASE_NAMES = ["L1", "L2", "L3"];
const EVENT_FIELDS = new Set([
  "id",
  "type",
  "start",
  "end",
  "start_phase",
  "end_phase",
  "extreme_pct",
  "delta_u_pct",
  "rms_trace",
]);
const MAX_TRACE = 10_000;

/** An accepted voltage event as uploaded by the cell. */
export interface EventRow {
  id: string;
  type: EventType;
  start: number;
  end: number;
  startPhase: string | null;
  endPhase: string | null;
  extremePct: number;
  deltaUPct: number | null;
  /** JSON of `{ interval_ms, values_pct }`, kept as uploaded for the event screens. */
  trace: string | null;
  /** What the platform classifies it as (EN 50160 tables), e.g. `INTERRUPTION_SHORT`. */
  kind: string;
  /** The dip or swell table cell, `row/column` (e.g. `70-40/200-500ms`), or null. */
  tableCell: string | null;
}

/** An accepted I/O state. */
export interface IoRow {
  ts: number;
  module: number;
  channel: number;
  kind: "DI" | "DO" | "AI";
  value: number;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Splits `events[]` into accepted events and rejections. */
export function validateEvents(
  records: unknown,
  ctx: ValidationContext,
): { rows: EventRow[]; rejected: Rejection[] } {
  const rows: EventRow[] = [];
  const rejected: Rejection[] = [];
  if (records === undefined) return { rows, rejected };
  if (!Array.isArray(records)) {
    return {
      rows,
      rejected: [{ section: "batch", index: -1, field: "events", key: "ingest.notAList" }],
    };
  }
  records.forEach((record, index) => {
    const fail = (field: string, key: string) =>
      rejected.push({ section: "events", index, field, key });
    if (!isObject(record)) return fail("", "ingest.notAnObject");
    const unknown = Object.keys(record).find((k) => !EVENT_FIELDS.has(k));
    if (unknown) return fail(unknown, "ingest.unknownField");
    const { id, type, start, end, extreme_pct: extreme, delta_u_pct: delta } = record;
    if (typeof id !== "string" || !/^[\w.:-]{1,64}$/.test(id)) return fail("id", "ingest.required");
    if (!EVENT_TYPES.includes(type as EventType)) return fail("type", "ingest.outOfRange");
    const startMs = typeof start === "string" ? parseUtc(start) : NaN;
    const endMs = typeof end === "string" ? parseUtc(end) : NaN;
    if (Number.isNaN(startMs)) return fail("start", "ingest.invalidTimestamp");
    if (Number.isNaN(endMs)) return fail("end", "ingest.invalidTimestamp");
    if (endMs < startMs) return fail("end", "ingest.endBeforeStart");
    if (startMs < ctx.oldest) return fail("start", "ingest.tooOld");
    if (endMs > ctx.now + 5 * 60_000) return fail("end", "ingest.inFuture");
    if (typeof extreme !== "number" || !Number.isFinite(extreme) || extreme < 0 || extreme > 200) {
      return fail("extreme_pct", "ingest.outOfRange");
    }
    if (
      delta !== undefined && delta !== null &&
      (typeof delta !== "number" || !Number.isFinite(delta))
    ) {
      return fail("delta_u_pct", "ingest.notFinite");
    }
    for (const field of ["start_phase", "end_phase"] as const) {
      const v = record[field];
      if (v !== undefined && v !== null && !PHASE_NAMES.includes(v as string)) {
        return fail(field, "ingest.outOfRange");
      }
    }
    const trace = record.rms_trace;
    if (trace !== undefined && trace !== null) {
      const ok = isObject(trace) && typeof trace.interval_ms === "number" &&
        trace.interval_ms > 0 &&
        Array.isArray(trace.values_pct) && trace.values_pct.length <= MAX_TRACE &&
        trace.values_pct.every((v) =>
          typeof v === "number" && Number.isFinite(v) && v >= 0 && v <= 200
        );
      if (!ok) return fail("rms_trace", "ingest.invalidTrace");
    }
    let classified;
    try {
      classified = classifyEvent(record as unknown as DeviceEventRecord);
    } catch (error) {
      if (error instanceof EventValidationError) {
        return fail(error.field, "ingest.eventInconsistent");
      }
      throw error;
    }
    rows.push({
      id,
      type: type as EventType,
      kind: classified.kind,
      tableCell: classified.cell ? `${classified.cell.row}/${classified.cell.column}` : null,
      start: startMs,
      end: endMs,
      startPhase: (record.start_phase as string | undefined) ?? null,
      endPhase: (record.end_phase as string | undefined) ?? null,
      extremePct: extreme,
      deltaUPct: typeof delta === "number" ? delta : null,
      trace: trace ? JSON.stringify(trace) : null,
    });
  });
  return { rows, rejected };
}

/** Splits `io[]` into accepted states and rejections. */
export function validateIo(
  records: unknown,
  ctx: ValidationContext,
): { rows: IoRow[]; rejected: Rejection[] } {
  const rows: IoRow[] = [];
  const rejected: Rejection[] = [];
  if (records === undefined) return { rows, rejected };
  if (!Array.isArray(records)) {
    return {
      rows,
      rejected: [{ section: "batch", index: -1, field: "io", key: "ingest.notAList" }],
    };
  }
  records.forEach((record, index) => {
    const fail = (field: string, key: string) =>
      rejected.push({ section: "io", index, field, key });
    if (!isObject(record)) return fail("", "ingest.notAnObject");
    const unknown = Object.keys(record).find((k) =>
      !["ts", "module", "channel", "kind", "value"].includes(k)
    );
    if (unknown) return fail(unknown, "ingest.unknownField");
    const ts = typeof record.ts === "string" ? parseUtc(record.ts) : NaN;
    if (Number.isNaN(ts)) return fail("ts", "ingest.invalidTimestamp");
    if (ts > ctx.now + 5 * 60_000) return fail("ts", "ingest.inFuture");
    if (ts < ctx.oldest) return fail("ts", "ingest.tooOld");
    const { module, channel, kind, value } = record;
    if (!inIntRange(module, PROTOCOL_LIMITS.ioModule)) {
      return fail("module", "ingest.outOfRange");
    }
    if (!inIntRange(channel, PROTOCOL_LIMITS.ioChannel)) {
      return fail("channel", "ingest.outOfRange");
    }
    if (kind !== "DI" && kind !== "DO" && kind !== "AI") return fail("kind", "ingest.outOfRange");
    if (typeof value !== "number" || !Number.isFinite(value)) {
      return fail("value", "ingest.notFinite");
    }
    if (kind !== "AI" && value !== 0 && value !== 1) return fail("value", "ingest.outOfRange");
    rows.push({ ts, module: module as number, channel: channel as number, kind, value });
  });
  return { rows, rejected };
}

function inIntRange(value: unknown, [min, max]: readonly [number, number]): boolean {
  return Number.isInteger(value) && (value as number) >= min && (value as number) <= max;
}
