/**
 * The payload of an ingest journal record: the accepted records of one group of batches, in a
 * compact binary form (43 bytes per 20-s row; protocol v1 rows with PQ values 12 more, 108 with
 * harmonics; 110 bytes per PQ record) that costs a few DataView writes per value. Events and
 * I/O states, which are rare, travel as JSON. Records written by earlier releases (version 1:
 * all PQ fields on every row) are still read, so a journal survives an upgrade.
 */
import type { MeasurementRow, OptionalField, PqValues } from "./validate.ts";
import { OPTIONAL_FIELDS } from "./validate.ts";
import type { EventRow, IoRow } from "./validate_extras.ts";
import type { PqRow } from "./validate_pq.ts";

/** The accepted records of one cell's batch. */
export interface JournalBatch {
  cellId: string;
  rows: readonly MeasurementRow[];
  pq: readonly PqRow[];
  events: readonly EventRow[];
  io: readonly IoRow[];
}

const VERSION = 2;
const OPTIONAL_NAMES = Object.keys(OPTIONAL_FIELDS) as OptionalField[];
const HARMONICS = 24;
/** ts f64, feeder u8, phase u8, u f32, i f32, optional f32s, flags u8. */
const ROW_BYTES = 8 + 1 + 1 + 4 + 4 + 4 * OPTIONAL_NAMES.length + 1;
/** unbalance, pst, plt f32, harmonics flag u8 (harmonics follow when set). */
const PQ_VALUES_BYTES = 3 * 4 + 1;
/** slot f64, feeder u8, phase u8, then the PQ values. */
const PQ_RECORD_BYTES = 8 + 1 + 1 + PQ_VALUES_BYTES;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

const pqValuesBytes = (pq: PqValues) => PQ_VALUES_BYTES + (pq.h ? 4 * HARMONICS : 0);

/** Encodes a group of batches. */
export function encodeGroup(batches: readonly JournalBatch[]): Uint8Array {
  const texts = batches.map((b) => ({
    cell: encoder.encode(b.cellId),
    extras: b.events.length || b.io.length
      ? encoder.encode(JSON.stringify({ events: b.events, io: b.io }))
      : new Uint8Array(0),
  }));
  let size = 1 + 4;
  batches.forEach((b, k) => {
    size += 2 + texts[k]!.cell.length + 4 + 4 + 4 + texts[k]!.extras.length;
    for (const row of b.rows) size += ROW_BYTES + (row.pq ? pqValuesBytes(row.pq) : 0);
    for (const record of b.pq) size += PQ_RECORD_BYTES - PQ_VALUES_BYTES + pqValuesBytes(record);
  });
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  let at = 0;
  const writePq = (pq: PqValues) => {
    view.setFloat32(at, pq.unbalance, true);
    view.setFloat32(at + 4, pq.pst, true);
    view.setFloat32(at + 8, pq.plt, true);
    view.setUint8(at + 12, pq.h ? 1 : 0);
    at += PQ_VALUES_BYTES;
    if (pq.h) {
      for (let h = 0; h < HARMONICS; h++) view.setFloat32(at + 4 * h, pq.h[h]!, true);
      at += 4 * HARMONICS;
    }
  };
  view.setUint8(at, VERSION);
  view.setUint32(at + 1, batches.length, true);
  at += 5;
  batches.forEach((b, k) => {
    const { cell, extras } = texts[k]!;
    view.setUint16(at, cell.length, true);
    bytes.set(cell, at + 2);
    at += 2 + cell.length;
    view.setUint32(at, b.rows.length, true);
    at += 4;
    for (const row of b.rows) {
      view.setFloat64(at, row.ts, true);
      view.setUint8(at + 8, row.feeder);
      view.setUint8(at + 9, row.phase);
      view.setFloat32(at + 10, row.u, true);
      view.setFloat32(at + 14, row.i, true);
      at += 18;
      for (const name of OPTIONAL_NAMES) {
        view.setFloat32(at, row.values[name], true);
        at += 4;
      }
      view.setUint8(at, row.pq ? 1 : 0);
      at += 1;
      if (row.pq) writePq(row.pq);
    }
    view.setUint32(at, b.pq.length, true);
    at += 4;
    for (const record of b.pq) {
      view.setFloat64(at, record.slot, true);
      view.setUint8(at + 8, record.feeder);
      view.setUint8(at + 9, record.phase);
      at += 10;
      writePq(record);
    }
    view.setUint32(at, extras.length, true);
    bytes.set(extras, at + 4);
    at += 4 + extras.length;
  });
  return bytes;
}

/** Decodes what `encodeGroup` wrote (this version or version 1); throws on another version. */
export function decodeGroup(bytes: Uint8Array): JournalBatch[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint8(0);
  if (version !== VERSION && version !== 1) {
    throw new Error(`Cannot read an ingest journal record of version ${version}`);
  }
  const count = view.getUint32(1, true);
  let at = 5;
  const f32 = () => {
    const value = view.getFloat32(at, true);
    at += 4;
    return value;
  };
  const harmonics = (): Float32Array | null => {
    if (view.getUint8(at++) !== 1) return null;
    const h = new Float32Array(HARMONICS);
    for (let k = 0; k < HARMONICS; k++) h[k] = view.getFloat32(at + 4 * k, true);
    at += 4 * HARMONICS;
    return h;
  };
  const readPq = (): PqValues => {
    const unbalance = f32();
    const pst = f32();
    const plt = f32();
    return { unbalance, pst, plt, h: harmonics() };
  };
  const batches: JournalBatch[] = [];
  for (let b = 0; b < count; b++) {
    const cellLength = view.getUint16(at, true);
    const cellId = decoder.decode(bytes.subarray(at + 2, at + 2 + cellLength));
    at += 2 + cellLength;
    const rowCount = view.getUint32(at, true);
    at += 4;
    const rows: MeasurementRow[] = [];
    for (let r = 0; r < rowCount; r++) {
      const ts = view.getFloat64(at, true);
      const feeder = view.getUint8(at + 8);
      const phase = view.getUint8(at + 9);
      at += 10;
      const u = f32();
      const i = f32();
      const values = {} as Record<OptionalField, number>;
      for (const name of OPTIONAL_NAMES) values[name] = f32();
      let pq: PqValues | null;
      if (version === 1) {
        // p, q, pf, thd_u, thd_i, f, unbalance, pst, plt, then the harmonics.
        const [unbalance, pst, plt] = [f32(), f32(), f32()];
        const h = harmonics();
        pq = h || unbalance === unbalance || pst === pst || plt === plt
          ? { unbalance, pst, plt, h }
          : null;
      } else {
        pq = view.getUint8(at++) === 1 ? readPq() : null;
      }
      rows.push({ ts, feeder, phase, u, i, values, pq });
    }
    const pq: PqRow[] = [];
    if (version !== 1) {
      const pqCount = view.getUint32(at, true);
      at += 4;
      for (let r = 0; r < pqCount; r++) {
        const slot = view.getFloat64(at, true);
        const feeder = view.getUint8(at + 8);
        const phase = view.getUint8(at + 9);
        at += 10;
        pq.push({ slot, feeder, phase, ...readPq() });
      }
    }
    const extrasLength = view.getUint32(at, true);
    const extras = extrasLength
      ? JSON.parse(decoder.decode(bytes.subarray(at + 4, at + 4 + extrasLength))) as {
        events: EventRow[];
        io: IoRow[];
      }
      : { events: [], io: [] };
    at += 4 + extrasLength;
    batches.push({ cellId, rows, pq, events: extras.events, io: extras.io });
  }
  return batches;
}
