/**
 * Writes the APDUs a test master saw as a classic pcap file (Ethernet, IPv4 on 127.0.0.1, one
 * TCP segment per APDU after a three-way handshake, sequence numbers consistent), so that
 * tshark's IEC 104 dissector can decode the conversation.
 */
import { writeFile } from "node:fs/promises";

/** One APDU in one direction. */
export interface Segment {
  at: number;
  fromStation: boolean;
  bytes: Uint8Array;
}

function ipChecksum(header: Uint8Array): number {
  let sum = 0;
  for (let k = 0; k < header.length; k += 2) sum += (header[k]! << 8) | header[k + 1]!;
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >> 16);
  return ~sum & 0xffff;
}

function packet(
  from: number,
  to: number,
  seq: number,
  ack: number,
  flags: number,
  payload: Uint8Array,
): Uint8Array {
  const out = new Uint8Array(14 + 20 + 20 + payload.length);
  const view = new DataView(out.buffer);
  out.set([0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 1], 0); // MAC addresses
  view.setUint16(12, 0x0800);
  const ip = out.subarray(14, 34);
  const ipView = new DataView(out.buffer, 14, 20);
  ip[0] = 0x45;
  ipView.setUint16(2, 40 + payload.length);
  ip[8] = 64;
  ip[9] = 6;
  ip.set([127, 0, 0, 1], 12);
  ip.set([127, 0, 0, 1], 16);
  ipView.setUint16(10, ipChecksum(ip));
  const tcp = new DataView(out.buffer, 34, 20);
  tcp.setUint16(0, from);
  tcp.setUint16(2, to);
  tcp.setUint32(4, seq >>> 0);
  tcp.setUint32(8, ack >>> 0);
  tcp.setUint8(12, 5 << 4);
  tcp.setUint8(13, flags);
  tcp.setUint16(14, 65535);
  out.set(payload, 54);
  return out;
}

/** Writes `segments` between a master on `masterPort` and the station on `stationPort`. */
export async function writePcap(
  path: string,
  segments: readonly Segment[],
  stationPort: number,
  masterPort: number,
): Promise<void> {
  const SYN = 0x02, ACK = 0x10, PSH = 0x08;
  let masterSeq = 1000;
  let stationSeq = 5000;
  const start = segments[0]?.at ?? Date.now();
  const records: { at: number; data: Uint8Array }[] = [
    { at: start, data: packet(masterPort, stationPort, masterSeq - 1, 0, SYN, new Uint8Array()) },
    {
      at: start,
      data: packet(stationPort, masterPort, stationSeq - 1, masterSeq, SYN | ACK, new Uint8Array()),
    },
    {
      at: start,
      data: packet(masterPort, stationPort, masterSeq, stationSeq, ACK, new Uint8Array()),
    },
  ];
  for (const s of segments) {
    if (s.fromStation) {
      records.push({
        at: s.at,
        data: packet(stationPort, masterPort, stationSeq, masterSeq, PSH | ACK, s.bytes),
      });
      stationSeq += s.bytes.length;
    } else {
      records.push({
        at: s.at,
        data: packet(masterPort, stationPort, masterSeq, stationSeq, PSH | ACK, s.bytes),
      });
      masterSeq += s.bytes.length;
    }
  }
  const size = 24 + records.reduce((n, r) => n + 16 + r.data.length, 0);
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0xa1b2c3d4, true);
  view.setUint16(4, 2, true);
  view.setUint16(6, 4, true);
  view.setUint32(16, 65535, true);
  view.setUint32(20, 1, true); // Ethernet
  let at = 24;
  for (const r of records) {
    view.setUint32(at, Math.floor(r.at / 1000), true);
    view.setUint32(at + 4, (r.at % 1000) * 1000, true);
    view.setUint32(at + 8, r.data.length, true);
    view.setUint32(at + 12, r.data.length, true);
    out.set(r.data, at + 16);
    at += 16 + r.data.length;
  }
  await writeFile(path, out);
}
