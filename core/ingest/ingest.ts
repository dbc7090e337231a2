/**
 * One batch from parse to durable commit: batch-level shape checks, per-record validation,
 * one transaction for everything accepted, and the answer of docs/ingestion-protocol.md.
 */
import type { MeasurementStore } from "./store.ts";
import { type Rejection, validateMeasurements } from "./validate.ts";
import { validateEvents, validateIo } from "./validate_extras.ts";

const BATCH_FIELDS = new Set(["batch_id", "sent_at", "device", "measurements", "io", "events"]);

/** Outcome of a batch: the HTTP status of the protocol and its body. */
export interface IngestOutcome {
  status: 200 | 207 | 400 | 422;
  accepted: number;
  duplicates: number;
  rejected: Rejection[];
  /** Device status to record, when the batch carried one. */
  device: { firmware?: string; gps_fix?: string; gsm_signal?: string } | null;
}

/** Limits that depend on configuration. */
export interface IngestLimits {
  now: number;
  rawLifetimeDays: number;
}

/** Validates and stores one parsed batch body of one authenticated cell. */
export async function ingestBatch(
  store: MeasurementStore,
  cell: { cellId: string; feederSlots: readonly number[] },
  body: unknown,
  limits: IngestLimits,
): Promise<IngestOutcome> {
  const empty = { accepted: 0, duplicates: 0, device: null };
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return {
      status: 400,
      ...empty,
      rejected: [{ section: "batch", index: -1, field: "", key: "ingest.notAnObject" }],
    };
  }
  const batch = body as Record<string, unknown>;
  const unknown = Object.keys(batch).find((k) => !BATCH_FIELDS.has(k));
  if (unknown) {
    return {
      status: 400,
      ...empty,
      rejected: [{ section: "batch", index: -1, field: unknown, key: "ingest.unknownField" }],
    };
  }
  const ctx = {
    now: limits.now,
    oldest: limits.now - limits.rawLifetimeDays * 86_400_000,
    feederSlots: cell.feederSlots,
  };
  const measurements = validateMeasurements(batch.measurements, ctx);
  const events = validateEvents(batch.events, ctx);
  const io = validateIo(batch.io, ctx);
  const rejected = [...measurements.rejected, ...events.rejected, ...io.rejected];
  const total = measurements.rows.length + events.rows.length + io.rows.length;
  const device = readDevice(batch.device);
  if (total === 0) {
    return { status: rejected.length ? 422 : 200, ...empty, device, rejected };
  }
  const result = await store.append(cell.cellId, {
    measurements: measurements.rows,
    events: events.rows,
    io: io.rows,
  });
  return { status: rejected.length ? 207 : 200, ...result, device, rejected };
}

function readDevice(value: unknown): IngestOutcome["device"] {
  if (typeof value !== "object" || value === null) return null;
  const d = value as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === "string" && v.length <= 64 ? v : undefined);
  const out: NonNullable<IngestOutcome["device"]> = {};
  const firmware = text(d.firmware);
  const gps = text(d.gps_fix);
  const gsm = text(d.gsm_signal);
  if (firmware) out.firmware = firmware;
  if (gps && ["GPS_FIX", "DGPS_FIX", "PPS_FIX", "NO_SIGNAL"].includes(gps)) out.gps_fix = gps;
  if (gsm && ["EXCELLENT", "GOOD", "FAIR", "POOR"].includes(gsm)) out.gsm_signal = gsm;
  return out;
}
