/**
 * One batch from parse to durable commit: batch-level shape checks, per-record validation,
 * one transaction for everything accepted, and the answer of docs/ingestion-protocol.md.
 */
import type { MeasurementStore } from "./store.ts";
import {
  PROTOCOL_VERSIONS,
  type ProtocolVersion,
  type Rejection,
  validateMeasurements,
} from "./validate.ts";
import { validateEvents, validateIo } from "./validate_extras.ts";
import { validatePq } from "./validate_pq.ts";

const V1_FIELDS = new Set(["batch_id", "sent_at", "device", "measurements", "io", "events"]);
/** Protocol v2 adds the version itself and the 10-minute PQ records. */
const V2_FIELDS = new Set([...V1_FIELDS, "protocol", "pq"]);

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
  const protocol = batch.protocol ?? 1;
  if (!PROTOCOL_VERSIONS.includes(protocol as ProtocolVersion)) {
    return {
      status: 400,
      ...empty,
      rejected: [{ section: "batch", index: -1, field: "protocol", key: "ingest.protocolVersion" }],
    };
  }
  const known = protocol === 2 ? V2_FIELDS : V1_FIELDS;
  const unknown = Object.keys(batch).find((k) => !known.has(k));
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
    protocol: protocol as ProtocolVersion,
  };
  const measurements = validateMeasurements(batch.measurements, ctx);
  const pq = validatePq(batch.pq, ctx);
  const events = validateEvents(batch.events, ctx);
  const io = validateIo(batch.io, ctx);
  const rejected = [
    ...measurements.rejected,
    ...pq.rejected,
    ...events.rejected,
    ...io.rejected,
  ];
  const total = measurements.rows.length + pq.rows.length + events.rows.length + io.rows.length;
  const device = readDevice(batch.device);
  if (total === 0) {
    return { status: rejected.length ? 422 : 200, ...empty, device, rejected };
  }
  const result = await store.append(cell.cellId, {
    measurements: measurements.rows,
    pq: pq.rows,
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
