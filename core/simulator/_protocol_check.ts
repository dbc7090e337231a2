/**
 * Test helper: every way a batch breaks docs/ingestion-protocol.md (shape, unknown fields,
 * formats, ranges, finiteness), as readable strings. An empty list means the batch is valid.
 */
import { type Batch, PROTOCOL_RANGES, WINDOW_MS } from "./protocol.ts";

const TS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
const TS_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const BATCH_KEYS = ["batch_id", "sent_at", "device", "measurements", "io", "events"];
const V2_BATCH_KEYS = ["protocol", ...BATCH_KEYS];
const V2_PQ_BATCH_KEYS = [...V2_BATCH_KEYS, "pq"];
const DEVICE_KEYS = ["firmware", "gps_fix", "gsm_signal", "temperature_c"];
const V2_ROW_KEYS = ["ts", "feeder", "phase", "u", "i", "p", "q", "pf", "thd_u", "thd_i", "f"];
const V1_ROW_KEYS = [...V2_ROW_KEYS, "unbalance", "h_u", "pst", "plt"];
const PQ_KEYS = ["slot", "feeder", "phase", "h_u", "pst", "plt", "unbalance"];
const NEUTRAL_ROW_KEYS = ["ts", "feeder", "phase", "i"];
const IO_KEYS = ["ts", "module", "channel", "kind", "value"];
const EVENT_KEYS = [
  "id",
  "type",
  "start",
  "end",
  "start_phase",
  "end_phase",
  "extreme_pct",
  "delta_u_pct",
  "rms_trace",
];

const keySets = new Map<readonly string[], Set<string>>();

function sameKeys(where: string, value: object, keys: readonly string[], out: string[]): void {
  let expected = keySets.get(keys);
  if (expected === undefined) keySets.set(keys, expected = new Set(keys));
  const actual = Object.keys(value);
  if (actual.length !== expected.size || actual.some((key) => !expected.has(key))) {
    out.push(`${where}: keys ${actual.join(",")}, expected ${keys.join(",")}`);
  }
}

function inRange(
  where: string,
  value: unknown,
  range: readonly [number, number],
  out: string[],
): void {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    out.push(`${where}: ${value} is not a finite number`);
  } else if (value < range[0] || value > range[1]) {
    out.push(`${where}: ${value} outside ${range[0]}..${range[1]}`);
  }
}

function checkTs(where: string, ts: string, out: string[]): void {
  if (!TS.test(ts)) out.push(`${where}: ts ${ts} is not UTC whole seconds`);
  else if (Date.parse(ts) % WINDOW_MS !== 0) out.push(`${where}: ts ${ts} is not 20-s aligned`);
}

function checkHarmonics(at: string, h: number[] | undefined, out: string[]): void {
  if (h?.length !== PROTOCOL_RANGES.harmonics) out.push(`${at}: h_u has ${h?.length} values`);
  h?.forEach((v, n) => inRange(`${at}.h_u[${n}]`, v, PROTOCOL_RANGES.harmonic, out));
}

function checkPq(batch: Batch, out: string[]): void {
  const R = PROTOCOL_RANGES;
  batch.pq?.forEach((record, k) => {
    const at = `pq[${k}]`;
    sameKeys(at, record, PQ_KEYS, out);
    if (!TS.test(record.slot) || Date.parse(record.slot) % 600_000 !== 0) {
      out.push(`${at}: slot ${record.slot} is not a UTC 10-minute slot`);
    }
    inRange(`${at}.feeder`, record.feeder, R.feeder, out);
    if (!["L1", "L2", "L3"].includes(record.phase)) out.push(`${at}: phase ${record.phase}`);
    for (const field of ["unbalance", "pst", "plt"] as const) {
      inRange(`${at}.${field}`, record[field], R[field], out);
    }
    checkHarmonics(at, record.h_u, out);
  });
}

function checkMeasurements(batch: Batch, out: string[]): void {
  const R = PROTOCOL_RANGES;
  const v1 = batch.protocol === undefined;
  batch.measurements.forEach((m, k) => {
    const at = `measurements[${k}]`;
    checkTs(at, m.ts, out);
    if (!Number.isInteger(m.feeder)) out.push(`${at}: feeder ${m.feeder} is not an integer`);
    inRange(`${at}.feeder`, m.feeder, R.feeder, out);
    inRange(`${at}.i`, m.i, R.i, out);
    if (m.phase === "N") return sameKeys(at, m, NEUTRAL_ROW_KEYS, out);
    if (!["L1", "L2", "L3"].includes(m.phase)) out.push(`${at}: phase ${m.phase}`);
    sameKeys(at, m, v1 ? V1_ROW_KEYS : V2_ROW_KEYS, out);
    inRange(`${at}.u`, m.u, R.u, out);
    inRange(`${at}.p`, m.p, R.p, out);
    inRange(`${at}.q`, m.q, R.q, out);
    for (const field of ["pf", "thd_u", "thd_i", "f"] as const) {
      inRange(`${at}.${field}`, m[field], R[field], out);
    }
    if (!v1) return;
    for (const field of ["unbalance", "pst", "plt"] as const) {
      inRange(`${at}.${field}`, m[field], R[field], out);
    }
    checkHarmonics(at, m.h_u, out);
  });
}

function checkEvents(batch: Batch, out: string[]): void {
  batch.events.forEach((e, k) => {
    const at = `events[${k}]`;
    sameKeys(at, e, EVENT_KEYS, out);
    if (!["DIP", "SWELL", "INTERRUPTION", "RVC", "MSV"].includes(e.type)) {
      out.push(`${at}: type ${e.type}`);
    }
    if (!TS_MS.test(e.start) || !TS_MS.test(e.end)) out.push(`${at}: times ${e.start} ${e.end}`);
    if (Date.parse(e.end) <= Date.parse(e.start)) out.push(`${at}: ends before it starts`);
    for (const phase of [e.start_phase, e.end_phase]) {
      if (!["L1", "L2", "L3"].includes(phase)) out.push(`${at}: phase ${phase}`);
    }
    inRange(`${at}.extreme_pct`, e.extreme_pct, [0, 200], out);
    if ((e.type === "RVC") !== (e.delta_u_pct !== null)) out.push(`${at}: delta_u_pct misplaced`);
    if (e.delta_u_pct !== null) inRange(`${at}.delta_u_pct`, e.delta_u_pct, [0, 100], out);
    inRange(`${at}.rms_trace.interval_ms`, e.rms_trace.interval_ms, [1, 60_000], out);
    e.rms_trace.values_pct.forEach((v, n) => inRange(`${at}.trace[${n}]`, v, [0, 200], out));
  });
}

/** Every protocol violation in `batch`; empty when it is valid. */
export function protocolViolations(batch: Batch): string[] {
  const out: string[] = [];
  const keys = batch.protocol === undefined
    ? BATCH_KEYS
    : batch.pq === undefined
    ? V2_BATCH_KEYS
    : V2_PQ_BATCH_KEYS;
  sameKeys("batch", batch, keys, out);
  if (batch.protocol !== undefined && batch.protocol !== 2) out.push(`protocol ${batch.protocol}`);
  sameKeys("device", batch.device, DEVICE_KEYS, out);
  if (!TS.test(batch.sent_at)) out.push(`sent_at ${batch.sent_at}`);
  inRange("device.temperature_c", batch.device.temperature_c, [-60, 120], out);
  checkMeasurements(batch, out);
  checkPq(batch, out);
  batch.io.forEach((io, k) => {
    sameKeys(`io[${k}]`, io, IO_KEYS, out);
    checkTs(`io[${k}]`, io.ts, out);
    inRange(`io[${k}].module`, io.module, PROTOCOL_RANGES.ioModule, out);
    inRange(`io[${k}].channel`, io.channel, PROTOCOL_RANGES.ioChannel, out);
    if (io.kind !== "AI" && io.value !== 0 && io.value !== 1) out.push(`io[${k}].value`);
  });
  checkEvents(batch, out);
  return out;
}
