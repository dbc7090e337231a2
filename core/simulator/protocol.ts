/**
 * The batch a cell posts to `POST /ingest/v1/batches` (docs/ingestion-protocol.md, protocol
 * versions 2 and 1), as the simulator produces it, and the protocol's value ranges in one table.
 */

/** Length of one measurement window: cells send 20-s values. */
import { PROTOCOL_LIMITS } from "../ingest/validate.ts";
export const WINDOW_MS = 20_000;

/** A probe: the three phase conductors and the neutral (current only). */
export type Phase = "L1" | "L2" | "L3" | "N";

/** A phase conductor, where events start and end. */
export type LinePhase = "L1" | "L2" | "L3";

/**
 * One 20-s measurement of one feeder and probe. The neutral row carries `i` only. Harmonics,
 * unbalance, Pst and Plt are protocol v1 only (v2 sends them in the 10-minute `pq` records).
 */
export interface Measurement {
  /** UTC ISO-8601 start of the window, whole seconds, a multiple of 20 s. */
  ts: string;
  feeder: number;
  phase: Phase;
  /** V, phase-to-neutral RMS of the window. */
  u?: number;
  /** A, RMS of the window. */
  i: number;
  /** kW, signed, negative = export. */
  p?: number;
  /** kvar, signed. */
  q?: number;
  pf?: number;
  thd_u?: number;
  thd_i?: number;
  /** Harmonics 2..25 of the voltage in % of the fundamental (24 values). */
  h_u?: number[];
  f?: number;
  unbalance?: number;
  pst?: number;
  plt?: number;
}

/** Protocol v2: the 10-minute power-quality record of one feeder and phase conductor. */
export interface PqRecord {
  /** UTC ISO-8601 start of the 10-minute slot. */
  slot: string;
  feeder: number;
  phase: LinePhase;
  /** Harmonics 2..25 of the voltage in % of the fundamental (24 values), RMS over the slot. */
  h_u?: number[];
  /** Highest short-term flicker severity of the slot. */
  pst?: number;
  /** Long-term flicker severity (2 h) as of the slot's end. */
  plt?: number;
  /** Mean negative/positive sequence unbalance of the slot, in %. */
  unbalance?: number;
}

/** The protocol versions the simulator speaks: 2 (the default) or 1 (deployed firmware). */
export type ProtocolVersion = 1 | 2;

/** A digital or analogue input/output state of an I/O module. */
export interface IoRecord {
  ts: string;
  module: number;
  channel: number;
  kind: "DI" | "DO" | "AI";
  value: number;
}

/** The event types a cell detects on the device. */
export type VoltageEventType = "DIP" | "SWELL" | "INTERRUPTION" | "RVC" | "MSV";

/** A voltage event record as the device uploads it. */
export interface VoltageEvent {
  id: string;
  type: VoltageEventType;
  /** UTC ISO-8601 with milliseconds. */
  start: string;
  end: string;
  start_phase: LinePhase;
  end_phase: LinePhase;
  /** Residual (dip, interruption) or peak (swell) voltage in % of Uref. */
  extreme_pct: number;
  /** Steady-state voltage change of an RVC in % of Uref, else null. */
  delta_u_pct: number | null;
  rms_trace: { interval_ms: number; values_pct: number[] };
}

/** GPS fix states of the spec. */
export type GpsFix = "GPS_FIX" | "DGPS_FIX" | "PPS_FIX" | "NO_SIGNAL";

/** GSM signal quality of the spec. */
export type SignalQuality = "EXCELLENT" | "GOOD" | "FAIR" | "POOR";

/** The device status sent with every batch. */
export interface DeviceStatus {
  firmware: string;
  gps_fix: GpsFix;
  gsm_signal: SignalQuality;
  temperature_c: number;
}

/** The body of `POST /ingest/v1/batches`. */
export interface Batch {
  /** 2 for protocol v2; absent in protocol v1. */
  protocol?: 2;
  batch_id: string;
  /** UTC ISO-8601, whole seconds. */
  sent_at: string;
  device: DeviceStatus;
  measurements: Measurement[];
  /** Protocol v2: the records of a slot that has ended (`pqSlotSentAt`). */
  pq?: PqRecord[];
  io: IoRecord[];
  events: VoltageEvent[];
}

/** The protocol's value ranges (inclusive): the ingestion's own table, so both never drift. */
export const PROTOCOL_RANGES = PROTOCOL_LIMITS;

/** `2026-11-22T09:00:00Z`: whole seconds, as the protocol's `ts` and `sent_at`. */
export function isoSeconds(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 19) + "Z";
}

/** `2026-11-22T08:59:41.120Z`: with milliseconds, as event times. */
export function isoMillis(epochMs: number): string {
  return new Date(epochMs).toISOString();
}
