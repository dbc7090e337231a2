/**
 * The payload of an ingest journal record: the accepted records of one group of batches, in a
 * compact binary form (about 55 bytes per 20-s row, 151 with harmonics) that costs a few
 * DataView writes per value. Events and I/O states, which are rare, travel as JSON.
 */
import type { MeasurementRow, OptionalField } from "./validate.ts";
import { OPTIONAL_FIELDS } from "./validate.ts";
import type { EventRow, IoRow } from "./validate_extras.ts";

/** The accepted records of one cell's batch. */
export interface JournalBatch {
  cellId: string;
  rows: readonly MeasurementRow[];
  events: readonly EventRow[];
  io: readonly IoRow[];
}

const VERSION = 1;
const OPTIONAL_NAMES = Object.keys(OPTIONAL_FIELDS) as OptionalField[];
const HARMONICS = 24;
/** ts f64, feeder u8, phase u8, u f32, i f32, optional f32s, harmonics flag u8. */
const ROW_BYTES = 8 + 1 + 1 + 4 + 4 + 4 * OPTIONAL_NAMES.length + 1;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

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
    size += 2 + texts[k]!.cell.length + 4 + 4 + texts[k]!.extras.length;
    for (const row of b.rows) size += ROW_BYTES + (row.h ? 4 * HARMONICS : 0);
  });
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  let at = 0;
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
      view.setUint8(at, row.h ? 1 : 0);
      at += 1;
      if (row.h) {
        for (let h = 0; h < HARMONICS; h++) view.setFloat32(at + 4 * h, row.h[h]!, true);
        at += 4 * HARMONICS;
      }
    }
    view.setUint32(at, extras.length, true);
    bytes.set(extras, at + 4);
    at += 4 + extras.length;
  });
  return bytes;
}

/** Decodes what `encodeGroup` wrote; throws on a payload of another version. */
export function decodeGroup(bytes: Uint8Array): JournalBatch[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint8(0) !== VERSION) {
    throw new Error(`Cannot read an ingest journal record of version ${view.getUint8(0)}`);
  }
  const count = view.getUint32(1, true);
  let at = 5;
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
      const u = view.getFloat32(at + 10, true);
      const i = view.getFloat32(at + 14, true);
      at += 18;
      const values = {} as Record<OptionalField, number>;
      for (const name of OPTIONAL_NAMES) {
        values[name] = view.getFloat32(at, true);
        at += 4;
      }
      let h: Float32Array | null = null;
      if (view.getUint8(at++) === 1) {
        h = new Float32Array(HARMONICS);
        for (let k = 0; k < HARMONICS; k++) h[k] = view.getFloat32(at + 4 * k, true);
        at += 4 * HARMONICS;
      }
      rows.push({ ts, feeder, phase, u, i, values, h });
    }
    const extrasLength = view.getUint32(at, true);
    const extras = extrasLength
      ? JSON.parse(decoder.decode(bytes.subarray(at + 4, at + 4 + extrasLength))) as {
        events: EventRow[];
        io: IoRow[];
      }
      : { events: [], io: [] };
    at += 4 + extrasLength;
    batches.push({ cellId, rows, events: extras.events, io: extras.io });
  }
  return batches;
}
