/**
 * Validation of the 10-minute power-quality records of protocol v2 (`pq[]`,
 * docs/ingestion-protocol.md): one record per feeder, phase and UTC 10-minute slot, sent by the
 * cell once the slot has ended. Records are refused one by one, like measurements.
 */
import {
  checkPqValues,
  type Failure,
  parseUtc,
  PHASES,
  type PqValues,
  PROTOCOL_LIMITS,
  type Rejection,
  type ValidationContext,
} from "./validate.ts";

/** Length of a PQ record's slot. */
export const PQ_SLOT_MS = 10 * 60_000;
const PQ_RECORD_FIELDS = new Set(["slot", "feeder", "phase", "unbalance", "pst", "plt", "h_u"]);
/** A record may describe a slot that ends this far ahead of the platform's clock (clock skew). */
const FUTURE_TOLERANCE_MS = 5 * 60_000;
const [MIN_FEEDER, MAX_FEEDER] = PROTOCOL_LIMITS.feeder;

/** One accepted PQ record: its slot start (epoch ms), feeder, phase code and values. */
export interface PqRow extends PqValues {
  slot: number;
  feeder: number;
  phase: number;
}

/** Splits the `pq` records of a batch into accepted rows and rejections. */
export function validatePq(
  records: unknown,
  ctx: ValidationContext,
): { rows: PqRow[]; rejected: Rejection[] } {
  const rows: PqRow[] = [];
  const rejected: Rejection[] = [];
  if (records === undefined) return { rows, rejected };
  if (!Array.isArray(records)) {
    return {
      rows,
      rejected: [{ section: "batch", index: -1, field: "pq", key: "ingest.notAList" }],
    };
  }
  const seen = new Set<number>();
  for (let index = 0; index < records.length; index++) {
    const result = validateOne(records[index], ctx);
    if ("key" in result) {
      rejected.push({ section: "pq", index, field: result.field, key: result.key });
      continue;
    }
    const identity = (result.slot / PQ_SLOT_MS) * 32 + result.feeder * 4 + result.phase;
    if (seen.has(identity)) {
      rejected.push({ section: "pq", index, field: "slot", key: "ingest.duplicateInBatch" });
      continue;
    }
    seen.add(identity);
    rows.push(result);
  }
  return { rows, rejected };
}

function validateOne(record: unknown, ctx: ValidationContext): PqRow | Failure {
  if (typeof record !== "object" || record === null || Array.isArray(record)) {
    return { field: "", key: "ingest.notAnObject" };
  }
  const r = record as Record<string, unknown>;
  for (const name in r) {
    if (!PQ_RECORD_FIELDS.has(name)) return { field: name, key: "ingest.unknownField" };
  }
  if (typeof r.slot !== "string") return { field: "slot", key: "ingest.required" };
  const slot = parseUtc(r.slot);
  if (Number.isNaN(slot)) return { field: "slot", key: "ingest.invalidTimestamp" };
  if (slot % PQ_SLOT_MS !== 0) return { field: "slot", key: "ingest.notSlotAligned" };
  // The record of a slot exists once the slot has ended.
  if (slot + PQ_SLOT_MS > ctx.now + FUTURE_TOLERANCE_MS) {
    return { field: "slot", key: "ingest.inFuture" };
  }
  if (slot < ctx.oldest) return { field: "slot", key: "ingest.tooOld" };
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
  // Voltage quality of a phase conductor: the neutral carries current only.
  const phase = PHASES.indexOf(r.phase as (typeof PHASES)[number]);
  if (phase === -1 || phase === 3) return { field: "phase", key: "ingest.outOfRange" };
  const values = checkPqValues(r);
  if ("key" in values) return values;
  const { unbalance, pst, plt, h } = values;
  if (!h && unbalance !== unbalance && pst !== pst && plt !== plt) {
    return { field: "", key: "ingest.pqEmpty" };
  }
  return { slot, feeder, phase, unbalance, pst, plt, h };
}
