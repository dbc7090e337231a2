/**
 * Validation of ingestion batches (docs/ingestion-protocol.md). Hand-written rather than a
 * schema library: it runs for every record of every cell, so it allocates one small object per
 * accepted row and never throws for bad records, it collects them.
 */

/** Phases in probe order; N carries current only. */
export const PHASES = ["L1", "L2", "L3", "N"] as const;
export type Phase = (typeof PHASES)[number];

/** Optional numeric fields of a 20-s measurement (the hot row) with their allowed ranges. */
export const OPTIONAL_FIELDS = {
  p: [-1e6, 1e6],
  q: [-1e6, 1e6],
  pf: [-1, 1],
  thd_u: [0, 100],
  thd_i: [0, 100],
  f: [40, 70],
} as const satisfies Record<string, readonly [number, number]>;
export type OptionalField = keyof typeof OPTIONAL_FIELDS;
const OPTIONAL_NAMES = Object.keys(OPTIONAL_FIELDS) as OptionalField[];

/**
 * Power-quality values with their ranges: the 10-minute PQ record of protocol v2 (`pq[]`),
 * which protocol v1 carried on every 20-s measurement (with `h_u`).
 */
export const PQ_FIELDS = {
  unbalance: [0, 100],
  pst: [0, 20],
  plt: [0, 20],
} as const satisfies Record<string, readonly [number, number]>;
export type PqField = keyof typeof PQ_FIELDS;
const PQ_NAMES = Object.keys(PQ_FIELDS) as PqField[];

/** Protocol versions of the batch body (`protocol`, 1 when absent). */
export const PROTOCOL_VERSIONS = [1, 2] as const;
export type ProtocolVersion = (typeof PROTOCOL_VERSIONS)[number];

const V2_FIELDS = new Set(["ts", "feeder", "phase", "u", "i", ...OPTIONAL_NAMES]);
const V1_FIELDS = new Set([...V2_FIELDS, "h_u", ...PQ_NAMES]);
const HARMONICS = 24;

/**
 * Every numeric limit of the protocol (docs/ingestion-protocol.md), inclusive: the one table
 * validation enforces and the simulator generates within.
 */
export const PROTOCOL_LIMITS = {
  feeder: [1, 6],
  // Up to MV: phase voltages of a 52-kV grid reach about 30 kV (MV lines measured directly).
  u: [0, 40_000],
  i: [0, 10_000],
  ...OPTIONAL_FIELDS,
  ...PQ_FIELDS,
  harmonic: [0, 100],
  ioModule: [1, 8],
  ioChannel: [1, 8],
  harmonics: HARMONICS,
} as const;

/** Power-quality values; a missing one is NaN (harmonics: null). */
export interface PqValues {
  unbalance: number;
  pst: number;
  plt: number;
  /** Harmonics 2..25 of the voltage in % of fundamental, or null. */
  h: Float32Array | null;
}

/** One accepted 20-s record. Missing optional values are NaN. */
export interface MeasurementRow {
  ts: number;
  feeder: number;
  phase: number;
  u: number;
  i: number;
  values: Record<OptionalField, number>;
  /**
   * The PQ values a protocol v1 record carried, folded by the platform into its slot's PQ
   * record (core/ingest/pq_fold.ts); null when it carried none (always in protocol v2).
   */
  pq: PqValues | null;
}

/** Why a record was refused; `key` is an error-catalogue style message key. */
export interface Rejection {
  section: "measurements" | "pq" | "io" | "events" | "batch";
  index: number;
  field: string;
  key: string;
}

/** Limits that depend on time and configuration. */
export interface ValidationContext {
  now: number;
  /** The batch's protocol version: v2 measurements carry no PQ values (they come in `pq[]`). */
  protocol?: ProtocolVersion;
  /** Oldest accepted timestamp: now minus the raw-data lifetime. */
  oldest: number;
  /** Feeder slots configured at the cell's node; empty accepts 1..6. */
  feederSlots: readonly number[];
}

const FUTURE_TOLERANCE_MS = 5 * 60_000;

/** Splits the measurements of a batch into accepted rows and rejections. */
export function validateMeasurements(
  records: unknown,
  ctx: ValidationContext,
): { rows: MeasurementRow[]; rejected: Rejection[] } {
  const rows: MeasurementRow[] = [];
  const rejected: Rejection[] = [];
  if (records === undefined) return { rows, rejected };
  if (!Array.isArray(records)) {
    return {
      rows,
      rejected: [{ section: "batch", index: -1, field: "measurements", key: "ingest.notAList" }],
    };
  }
  // The records of a batch share a few timestamps: each distinct text is parsed once.
  const times = new Map<string, number>();
  const seen = new Set<number>();
  for (let index = 0; index < records.length; index++) {
    const result = validateOne(records[index], ctx, times);
    if ("key" in result) {
      rejected.push({ section: "measurements", index, field: result.field, key: result.key });
      continue;
    }
    // Exact below 2^53: ts < 2^48 ms (the year 10889) times 32.
    const identity = result.ts * 32 + result.feeder * 4 + result.phase;
    if (seen.has(identity)) {
      rejected.push({
        section: "measurements",
        index,
        field: "ts",
        key: "ingest.duplicateInBatch",
      });
      continue;
    }
    seen.add(identity);
    rows.push(result);
  }
  return { rows, rejected };
}

/** Why a record is refused: the field and the message key. */
export type Failure = { field: string; key: string };

const LIMIT = OPTIONAL_FIELDS;
const [MIN_FEEDER, MAX_FEEDER] = PROTOCOL_LIMITS.feeder;
const [MIN_U, MAX_U] = PROTOCOL_LIMITS.u;
const [MIN_I, MAX_I] = PROTOCOL_LIMITS.i;

/** One record; hand-written for the hot path (no allocation but the row itself). */
function validateOne(
  record: unknown,
  ctx: ValidationContext,
  times: Map<string, number>,
): MeasurementRow | Failure {
  if (typeof record !== "object" || record === null || Array.isArray(record)) {
    return { field: "", key: "ingest.notAnObject" };
  }
  const r = record as Record<string, unknown>;
  const known = ctx.protocol === 2 ? V2_FIELDS : V1_FIELDS;
  let pqFields = false;
  for (const name in r) {
    if (!known.has(name)) return { field: name, key: "ingest.unknownField" };
    if (!V2_FIELDS.has(name)) pqFields = true;
  }
  const text = r.ts;
  if (typeof text !== "string") return { field: "ts", key: "ingest.required" };
  let ts = times.get(text);
  if (ts === undefined) {
    ts = parseUtc(text);
    times.set(text, ts);
  }
  if (Number.isNaN(ts)) return { field: "ts", key: "ingest.invalidTimestamp" };
  if (ts % 20_000 !== 0) return { field: "ts", key: "ingest.notAligned" };
  if (ts > ctx.now + FUTURE_TOLERANCE_MS) return { field: "ts", key: "ingest.inFuture" };
  if (ts < ctx.oldest) return { field: "ts", key: "ingest.tooOld" };
  const feeder = r.feeder;
  if (
    typeof feeder !== "number" || !Number.isInteger(feeder) || feeder < MIN_FEEDER ||
    feeder > MAX_FEEDER
  ) {
    return { field: "feeder", key: "ingest.outOfRange" };
  }
  if (ctx.feederSlots.length && !ctx.feederSlots.includes(feeder)) {
    return { field: "feeder", key: "ingest.unknownFeeder" };
  }
  const phase = PHASES.indexOf(r.phase as Phase);
  if (phase === -1) return { field: "phase", key: "ingest.outOfRange" };
  const i = checkNumber(r.i, MIN_I, MAX_I, true);
  if (typeof i !== "number") return { field: "i", key: i.key };
  const neutral = phase === 3;
  const u = neutral && r.u === undefined ? NaN : checkNumber(r.u, MIN_U, MAX_U, !neutral);
  if (typeof u !== "number") return { field: "u", key: u.key };
  const p = checkNumber(r.p, ...LIMIT.p, false);
  if (typeof p !== "number") return { field: "p", key: p.key };
  const q = checkNumber(r.q, ...LIMIT.q, false);
  if (typeof q !== "number") return { field: "q", key: q.key };
  const pf = checkNumber(r.pf, ...LIMIT.pf, false);
  if (typeof pf !== "number") return { field: "pf", key: pf.key };
  const thdU = checkNumber(r.thd_u, ...LIMIT.thd_u, false);
  if (typeof thdU !== "number") return { field: "thd_u", key: thdU.key };
  const thdI = checkNumber(r.thd_i, ...LIMIT.thd_i, false);
  if (typeof thdI !== "number") return { field: "thd_i", key: thdI.key };
  const f = checkNumber(r.f, ...LIMIT.f, false);
  if (typeof f !== "number") return { field: "f", key: f.key };
  let pq: PqValues | null = null;
  if (pqFields) {
    const values = checkPqValues(r);
    if ("key" in values) return values;
    // Fields sent as null carry nothing to fold.
    if (
      values.h || values.unbalance === values.unbalance || values.pst === values.pst ||
      values.plt === values.plt
    ) pq = values;
  }
  const values = { p, q, pf, thd_u: thdU, thd_i: thdI, f };
  return { ts, feeder, phase, u, i, values, pq };
}

/** The PQ values of a v1 measurement or a v2 PQ record (`unbalance`, `pst`, `plt`, `h_u`). */
export function checkPqValues(r: Record<string, unknown>): PqValues | Failure {
  const unbalance = checkNumber(r.unbalance, ...PQ_FIELDS.unbalance, false);
  if (typeof unbalance !== "number") return { field: "unbalance", key: unbalance.key };
  const pst = checkNumber(r.pst, ...PQ_FIELDS.pst, false);
  if (typeof pst !== "number") return { field: "pst", key: pst.key };
  const plt = checkNumber(r.plt, ...PQ_FIELDS.plt, false);
  if (typeof plt !== "number") return { field: "plt", key: plt.key };
  let h: Float32Array | null = null;
  const harmonics = r.h_u;
  if (harmonics !== undefined && harmonics !== null) {
    if (!Array.isArray(harmonics) || harmonics.length !== HARMONICS) {
      return { field: "h_u", key: "ingest.harmonicsLength" };
    }
    h = new Float32Array(HARMONICS);
    const [min, max] = PROTOCOL_LIMITS.harmonic;
    for (let k = 0; k < HARMONICS; k++) {
      const v = checkNumber(harmonics[k], min, max, true);
      if (typeof v !== "number") return { field: `h_u[${k}]`, key: v.key };
      h[k] = v;
    }
  }
  return { unbalance, pst, plt, h };
}

/** A number within `[min, max]`, NaN when absent and optional, else why it is refused. */
export function checkNumber(
  value: unknown,
  min: number,
  max: number,
  required: boolean,
): number | { key: string } {
  if (typeof value === "number") {
    if (value >= min && value <= max) return value;
    return { key: Number.isFinite(value) ? "ingest.outOfRange" : "ingest.notFinite" };
  }
  if (value === undefined || value === null) return required ? { key: "ingest.required" } : NaN;
  return { key: "ingest.notANumber" };
}

// Only full UTC timestamps: a local time without offset would shift data by hours.
const UTC_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?(Z|\+00:00)$/;

/** Epoch ms of a UTC ISO-8601 timestamp, NaN when malformed or not UTC. */
export function parseUtc(text: string): number {
  return UTC_PATTERN.test(text) ? Date.parse(text) : NaN;
}
