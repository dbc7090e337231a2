/**
 * The controlling station's side of IEC 60870-5-104 (the commands a master sends and the reading
 * of monitoring objects): the tests' master and the point-list tools use it. Pure.
 */
import {
  type Asdu,
  COT,
  cp56,
  encodeAsdu,
  FrameError,
  objectLength,
  type PointValue,
  readCp56,
  readIoa,
  TYPE,
} from "./iec104_codec.ts";

/** A general interrogation command (the master's side; tests use it). */
export function interrogation(
  ca: number,
  cause: number = COT.ACTIVATION,
  qoi = 20,
  originator = 0,
): Uint8Array {
  return encodeAsdu(
    {
      type: TYPE.C_IC_NA_1,
      sq: false,
      count: 1,
      cause,
      negative: false,
      test: false,
      originator,
      ca,
    },
    Uint8Array.of(0, 0, 0, qoi),
  );
}

/** A clock synchronisation command (the master's side). */
export function clockSync(ca: number, ms: number, originator = 0): Uint8Array {
  const body = new Uint8Array(10);
  body.set(cp56(ms), 3);
  return encodeAsdu(
    {
      type: TYPE.C_CS_NA_1,
      sq: false,
      count: 1,
      cause: COT.ACTIVATION,
      negative: false,
      test: false,
      originator,
      ca,
    },
    body,
  );
}

/** A test command with time tag (the master's side). */
export function testCommand(ca: number, counter: number, ms: number, originator = 0): Uint8Array {
  const body = new Uint8Array(12);
  body[3] = counter & 0xff;
  body[4] = (counter >> 8) & 0xff;
  body.set(cp56(ms), 5);
  return encodeAsdu(
    {
      type: TYPE.C_TS_TA_1,
      sq: false,
      count: 1,
      cause: COT.ACTIVATION,
      negative: false,
      test: false,
      originator,
      ca,
    },
    body,
  );
}

/** Decoded monitoring objects of an ASDU of the types above (SQ=0) — the tests' master reads them. */
export function readMonitoring(asdu: Asdu): PointValue[] {
  const size = objectLength(asdu.type);
  if (asdu.sq || asdu.body.length !== size * asdu.count) throw new FrameError("object length");
  const view = new DataView(asdu.body.buffer, asdu.body.byteOffset, asdu.body.byteLength);
  const out: PointValue[] = [];
  for (let k = 0; k < asdu.count; k++) {
    const at = k * size;
    const ioa = readIoa(asdu.body, at);
    let next = at + 3;
    let value: number;
    let quality: number;
    if (asdu.type === TYPE.M_ME_NC_1 || asdu.type === TYPE.M_ME_TF_1) {
      value = view.getFloat32(next, true);
      quality = asdu.body[next + 4]!;
      next += 5;
    } else {
      value = asdu.body[next]! & 0x01;
      quality = asdu.body[next]! & 0xf0;
      next += 1;
    }
    const point: PointValue = { ioa, value, quality };
    if (asdu.type === TYPE.M_ME_TF_1 || asdu.type === TYPE.M_SP_TB_1) {
      const time = readCp56(asdu.body, next);
      if (time) point.at = time.ms;
    }
    out.push(point);
  }
  return out;
}
