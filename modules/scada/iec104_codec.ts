/**
 * IEC 60870-5-104 frames (APCI) and the ASDUs the connector sends and understands. Pure:
 * bytes in, values out, nothing else (docs/scada.md lists the interoperability profile).
 *
 * APDU: 0x68, length (<= 253: the four control octets and the ASDU), four control octets.
 * ASDU: type (1), VSQ (1), cause of transmission (2: cause + P/N + T, originator address),
 * common address (2, LE), information objects (address 3 LE + elements).
 */

export const START = 0x68;
/** Longest APDU length field (control octets + ASDU). */
export const MAX_APDU_LENGTH = 253;
/** Longest ASDU: 253 - 4 control octets. */
export const MAX_ASDU_LENGTH = MAX_APDU_LENGTH - 4;
/** Sequence numbers are 15 bits and wrap at 32768. */
export const SEQ_MODULO = 32768;

/** Type identifications used (IEC 60870-5-101/104). */
export const TYPE = {
  M_SP_NA_1: 1,
  M_ME_NC_1: 13,
  M_SP_TB_1: 30,
  M_ME_TF_1: 36,
  M_EI_NA_1: 70,
  C_IC_NA_1: 100,
  C_CS_NA_1: 103,
  C_TS_TA_1: 107,
} as const;

/** Causes of transmission used. */
export const COT = {
  PERIODIC: 1,
  SPONTANEOUS: 3,
  INITIALISED: 4,
  REQUEST: 5,
  ACTIVATION: 6,
  ACTIVATION_CON: 7,
  DEACTIVATION: 8,
  DEACTIVATION_CON: 9,
  ACTIVATION_TERM: 10,
  INTERROGATED_STATION: 20,
  UNKNOWN_TYPE: 44,
  UNKNOWN_CAUSE: 45,
  UNKNOWN_COMMON_ADDRESS: 46,
  UNKNOWN_IOA: 47,
} as const;

/** Quality descriptor bits (QDS / SIQ). */
export const QUALITY = { OV: 0x01, BL: 0x10, SB: 0x20, NT: 0x40, IV: 0x80 } as const;

/** Broadcast common address. */
export const BROADCAST_CA = 0xffff;

/** U-frame functions (first control octet). */
export const U = {
  STARTDT_ACT: 0x07,
  STARTDT_CON: 0x0b,
  STOPDT_ACT: 0x13,
  STOPDT_CON: 0x23,
  TESTFR_ACT: 0x43,
  TESTFR_CON: 0x83,
} as const;
export type UFunction = (typeof U)[keyof typeof U];
const U_FUNCTIONS = new Set<number>(Object.values(U));

/** One decoded APCI. */
export type Apci =
  | { kind: "I"; ns: number; nr: number; asdu: Uint8Array }
  | { kind: "S"; nr: number }
  | { kind: "U"; fn: UFunction };

/** Why bytes are not a valid APDU (the connection is closed). */
export class FrameError extends Error {}

/** An I-frame carrying `asdu` with send and receive sequence numbers. */
export function iFrame(ns: number, nr: number, asdu: Uint8Array): Uint8Array {
  if (asdu.length > MAX_ASDU_LENGTH) throw new RangeError("ASDU too long");
  const out = new Uint8Array(6 + asdu.length);
  out[0] = START;
  out[1] = 4 + asdu.length;
  out[2] = (ns << 1) & 0xfe;
  out[3] = (ns >> 7) & 0xff;
  out[4] = (nr << 1) & 0xfe;
  out[5] = (nr >> 7) & 0xff;
  out.set(asdu, 6);
  return out;
}

/** An S-frame acknowledging up to `nr`. */
export function sFrame(nr: number): Uint8Array {
  return Uint8Array.of(START, 4, 0x01, 0x00, (nr << 1) & 0xfe, (nr >> 7) & 0xff);
}

/** A U-frame. */
export function uFrame(fn: UFunction): Uint8Array {
  return Uint8Array.of(START, 4, fn, 0x00, 0x00, 0x00);
}

/**
 * Splits a byte stream into APDUs: returns the complete ones and the bytes left for later.
 * Throws FrameError at a wrong start octet or length (the stream cannot be resynchronised).
 */
export function splitFrames(buffer: Uint8Array): { frames: Uint8Array[]; rest: Uint8Array } {
  const frames: Uint8Array[] = [];
  let at = 0;
  while (buffer.length - at >= 2) {
    if (buffer[at] !== START) throw new FrameError(`start octet 0x${hex(buffer[at]!)}`);
    const length = buffer[at + 1]!;
    if (length < 4 || length > MAX_APDU_LENGTH) throw new FrameError(`length ${length}`);
    if (buffer.length - at < 2 + length) break;
    frames.push(buffer.subarray(at, at + 2 + length));
    at += 2 + length;
  }
  return { frames, rest: buffer.subarray(at) };
}

/** Decodes one whole APDU (as `splitFrames` gives it). */
export function decodeApci(frame: Uint8Array): Apci {
  const length = frame[1]!;
  if (frame[0] !== START || frame.length !== length + 2 || length < 4) {
    throw new FrameError("malformed APDU");
  }
  const [c1, c2, c3, c4] = [frame[2]!, frame[3]!, frame[4]!, frame[5]!];
  if ((c1 & 0x01) === 0) {
    if (length === 4) throw new FrameError("I-frame without ASDU");
    if (c3 & 0x01) throw new FrameError("I-frame receive sequence bit 0 set");
    return {
      kind: "I",
      ns: (c1 >> 1) | (c2 << 7),
      nr: (c3 >> 1) | (c4 << 7),
      asdu: frame.subarray(6),
    };
  }
  if (length !== 4) throw new FrameError("S- or U-frame with an ASDU");
  if ((c1 & 0x03) === 0x01) {
    if (c1 !== 0x01 || c2 !== 0 || (c3 & 0x01)) throw new FrameError("malformed S-frame");
    return { kind: "S", nr: (c3 >> 1) | (c4 << 7) };
  }
  if (!U_FUNCTIONS.has(c1) || c2 !== 0 || c3 !== 0 || c4 !== 0) {
    throw new FrameError("malformed U-frame");
  }
  return { kind: "U", fn: c1 as UFunction };
}

// ---- ASDU -------------------------------------------------------------------------------------

/** The header of an ASDU. */
export interface AsduHeader {
  type: number;
  /** Structure qualifier: objects are one sequence (one address, consecutive elements). */
  sq: boolean;
  count: number;
  cause: number;
  negative: boolean;
  test: boolean;
  originator: number;
  ca: number;
}

/** A received ASDU: header and the information object bytes after it. */
export interface Asdu extends AsduHeader {
  body: Uint8Array;
}

export const ASDU_HEADER_LENGTH = 6;

/** Decodes an ASDU's header; throws FrameError when shorter than the header. */
export function decodeAsdu(bytes: Uint8Array): Asdu {
  if (bytes.length < ASDU_HEADER_LENGTH) throw new FrameError("truncated ASDU");
  return {
    type: bytes[0]!,
    sq: (bytes[1]! & 0x80) !== 0,
    count: bytes[1]! & 0x7f,
    cause: bytes[2]! & 0x3f,
    negative: (bytes[2]! & 0x40) !== 0,
    test: (bytes[2]! & 0x80) !== 0,
    originator: bytes[3]!,
    ca: bytes[4]! | (bytes[5]! << 8),
    body: bytes.subarray(ASDU_HEADER_LENGTH),
  };
}

function header(out: Uint8Array, h: AsduHeader): void {
  out[0] = h.type;
  out[1] = (h.sq ? 0x80 : 0) | (h.count & 0x7f);
  out[2] = (h.cause & 0x3f) | (h.negative ? 0x40 : 0) | (h.test ? 0x80 : 0);
  out[3] = h.originator & 0xff;
  out[4] = h.ca & 0xff;
  out[5] = (h.ca >> 8) & 0xff;
}

/** An ASDU from a header and its object bytes. */
export function encodeAsdu(
  h: Omit<AsduHeader, "count"> & { count: number },
  body: Uint8Array,
): Uint8Array {
  const out = new Uint8Array(ASDU_HEADER_LENGTH + body.length);
  header(out, h);
  out.set(body, ASDU_HEADER_LENGTH);
  return out;
}

/** The same ASDU with another cause and P/N bit (a mirrored answer), originator kept. */
export function mirror(
  bytes: Uint8Array,
  cause: number,
  negative: boolean,
  ca?: number,
): Uint8Array {
  const out = new Uint8Array(bytes); // a copy, also of a Buffer (whose slice() is a view)
  out[2] = (cause & 0x3f) | (negative ? 0x40 : 0) | (bytes[2]! & 0x80);
  if (ca !== undefined) {
    out[4] = ca & 0xff;
    out[5] = (ca >> 8) & 0xff;
  }
  return out;
}

/** Reads a 3-octet information object address. */
export function readIoa(bytes: Uint8Array, at: number): number {
  return bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);
}

function writeIoa(out: Uint8Array, at: number, ioa: number): void {
  out[at] = ioa & 0xff;
  out[at + 1] = (ioa >> 8) & 0xff;
  out[at + 2] = (ioa >> 16) & 0xff;
}

// ---- CP56Time2a -------------------------------------------------------------------------------

/** CP56Time2a of an epoch time in UTC (7 octets); `invalid` sets the IV bit. */
export function cp56(ms: number, invalid = false): Uint8Array {
  const d = new Date(ms);
  const millis = d.getUTCSeconds() * 1000 + d.getUTCMilliseconds();
  const weekday = d.getUTCDay() === 0 ? 7 : d.getUTCDay();
  return Uint8Array.of(
    millis & 0xff,
    (millis >> 8) & 0xff,
    (d.getUTCMinutes() & 0x3f) | (invalid ? 0x80 : 0),
    d.getUTCHours() & 0x1f,
    (d.getUTCDate() & 0x1f) | ((weekday & 0x07) << 5),
    (d.getUTCMonth() + 1) & 0x0f,
    (d.getUTCFullYear() - 2000) & 0x7f,
  );
}

/** The epoch time of a CP56Time2a (UTC, years 2000-2099), or null when out of range. */
export function readCp56(bytes: Uint8Array, at: number): { ms: number; invalid: boolean } | null {
  if (bytes.length < at + 7) return null;
  const millis = bytes[at]! | (bytes[at + 1]! << 8);
  const minute = bytes[at + 2]! & 0x3f;
  const hour = bytes[at + 3]! & 0x1f;
  const day = bytes[at + 4]! & 0x1f;
  const month = bytes[at + 5]! & 0x0f;
  const year = 2000 + (bytes[at + 6]! & 0x7f);
  if (millis > 59_999 || minute > 59 || hour > 23 || day < 1 || month < 1 || month > 12) {
    return null;
  }
  const ms = Date.UTC(year, month - 1, day, hour, minute, 0, millis);
  return { ms, invalid: (bytes[at + 2]! & 0x80) !== 0 };
}

// ---- Information objects ----------------------------------------------------------------------

/** One value to send: a float (with its quality) or a single point. */
export interface PointValue {
  ioa: number;
  /** Float value, or 0/1 for a single point. */
  value: number;
  /** QDS / SIQ quality bits (QUALITY). */
  quality: number;
  /** Time tag (ms) for the timed types. */
  at?: number;
}

/** Octets of one information object of `type` (address included). */
export function objectLength(type: number): number {
  switch (type) {
    case TYPE.M_SP_NA_1:
      return 3 + 1;
    case TYPE.M_ME_NC_1:
      return 3 + 5;
    case TYPE.M_SP_TB_1:
      return 3 + 1 + 7;
    case TYPE.M_ME_TF_1:
      return 3 + 5 + 7;
    default:
      throw new RangeError(`type ${type}`);
  }
}

/** How many objects of `type` (SQ=0) fit in one ASDU. */
export function objectsPerAsdu(type: number): number {
  return Math.min(127, Math.floor((MAX_ASDU_LENGTH - ASDU_HEADER_LENGTH) / objectLength(type)));
}

/**
 * Monitoring ASDUs of `type` (each object with its own address, SQ=0) for `values`, split so
 * that each fits one APDU.
 */
export function monitoringAsdus(
  type: number,
  cause: number,
  ca: number,
  values: readonly PointValue[],
  originator = 0,
): Uint8Array[] {
  const size = objectLength(type);
  const per = objectsPerAsdu(type);
  const out: Uint8Array[] = [];
  const timed = type === TYPE.M_ME_TF_1 || type === TYPE.M_SP_TB_1;
  let tagAt = NaN;
  let tag: Uint8Array = new Uint8Array(7);
  for (let start = 0; start < values.length; start += per) {
    const chunk = values.slice(start, start + per);
    const body = new Uint8Array(chunk.length * size);
    const view = new DataView(body.buffer);
    chunk.forEach((v, k) => {
      const at = k * size;
      writeIoa(body, at, v.ioa);
      let next = at + 3;
      if (type === TYPE.M_ME_NC_1 || type === TYPE.M_ME_TF_1) {
        view.setFloat32(next, v.value, true);
        body[next + 4] = v.quality & 0xf1;
        next += 5;
      } else {
        body[next] = (v.value ? 0x01 : 0x00) | (v.quality & 0xf0);
        next += 1;
      }
      if (timed) {
        // Values of one commit share their 20-s window: the time tag is encoded once.
        const at = v.at ?? 0;
        if (at !== tagAt) {
          tag = cp56(at);
          tagAt = at;
        }
        body.set(tag, next);
      }
    });
    out.push(encodeAsdu(
      { type, sq: false, count: chunk.length, cause, negative: false, test: false, originator, ca },
      body,
    ));
  }
  return out;
}

/** End of initialisation (M_EI_NA_1, cause 4): COI 0 = local power on. */
export function endOfInitialisation(ca: number, coi = 0): Uint8Array {
  return encodeAsdu(
    {
      type: TYPE.M_EI_NA_1,
      sq: false,
      count: 1,
      cause: COT.INITIALISED,
      negative: false,
      test: false,
      originator: 0,
      ca,
    },
    Uint8Array.of(0, 0, 0, coi),
  );
}

function hex(n: number): string {
  return n.toString(16).padStart(2, "0");
}
