/**
 * A COMTRADE writer (IEEE C37.111-2013) for an event recording's RMS trace: the configuration
 * file (.cfg, text, CRLF) and the data file (.dat) in ASCII or BINARY (16-bit integers). Each
 * analog channel is stored as integers x with `value = a * x + b` (b = 0, `a` chosen per channel
 * so that its largest value fits 32,000 counts), time stamps in microseconds from the first
 * sample (time multiplier 1), times in UTC (time code and local code +0).
 *
 * @module
 */

/** One analog channel of a recording. */
export interface ComtradeChannel {
  /** Channel identifier, e.g. `UL1 RMS`. */
  name: string;
  /** Phase identification (up to 2 characters), e.g. `L1`. */
  phase: string;
  /** Circuit component being monitored, e.g. the node's name. */
  component: string;
  unit: string;
  values: readonly number[];
}

/** What a recording holds. */
export interface ComtradeRecording {
  station: string;
  device: string;
  /** Nominal line frequency in Hz (50 or 60). */
  frequency: number;
  /** Epoch ms of the first sample and of the trigger (the event's start). */
  firstSampleMs: number;
  triggerMs: number;
  /** Sampling interval in ms (one rate for the whole record). */
  intervalMs: number;
  channels: readonly ComtradeChannel[];
}

export type ComtradeFormat = "ASCII" | "BINARY";

/** The files of one recording. */
export interface ComtradeFiles {
  cfg: string;
  dat: Uint8Array;
}

const MAX_COUNT = 32_000;
const CRLF = "\r\n";

/** Text fields lose the characters the file's syntax reserves (commas, line breaks). */
function field(text: string, max: number): string {
  return text.replace(/[,\r\n]/g, " ").trim().slice(0, max);
}

/** `dd/mm/yyyy,hh:mm:ss.ssssss` in UTC (C37.111-2013 clause 7.4.6). */
export function comtradeTime(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, "0");
  const micros = String(d.getUTCMilliseconds() * 1000).padStart(6, "0");
  return `${two(d.getUTCDate())}/${two(d.getUTCMonth() + 1)}/${d.getUTCFullYear()},` +
    `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}.${micros}`;
}

/** The multiplier `a` of a channel: its largest magnitude maps to at most 32,000 counts. */
export function channelMultiplier(values: readonly number[]): number {
  const peak = values.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
  if (peak === 0) return 1;
  // Rounded up on 3 significant digits, so the text in the .cfg is exactly the value used.
  const raw = peak / MAX_COUNT;
  const scale = 10 ** (Math.floor(Math.log10(raw)) - 2);
  return Number((Math.ceil(raw / scale) * scale).toPrecision(3));
}

const number = (v: number) => String(Number(v.toPrecision(12)));

/** Writes the .cfg and .dat of a recording. */
export function writeComtrade(rec: ComtradeRecording, format: ComtradeFormat): ComtradeFiles {
  const samples = Math.min(...rec.channels.map((c) => c.values.length));
  const multipliers = rec.channels.map((c) => channelMultiplier(c.values));
  const counts = rec.channels.map((c, k) =>
    Int16Array.from(c.values.slice(0, samples), (v) => Math.round(v / multipliers[k]!))
  );
  const stepMicros = Math.round(rec.intervalMs * 1000);
  const lines = [
    `${field(rec.station, 64)},${field(rec.device, 64)},2013`,
    `${rec.channels.length},${rec.channels.length}A,0D`,
    ...rec.channels.map((c, k) =>
      [
        k + 1,
        field(c.name, 64),
        field(c.phase, 2),
        field(c.component, 64),
        field(c.unit, 32),
        number(multipliers[k]!),
        0,
        0,
        -32767,
        32767,
        1,
        1,
        "P",
      ].join(",")
    ),
    number(rec.frequency),
    "1",
    `${number(1000 / rec.intervalMs)},${samples}`,
    comtradeTime(rec.firstSampleMs),
    comtradeTime(rec.triggerMs),
    format,
    "1",
    "+0,+0",
    "F,0",
  ];
  const cfg = lines.join(CRLF) + CRLF;
  if (format === "ASCII") {
    const rows: string[] = [];
    for (let n = 0; n < samples; n++) {
      rows.push([n + 1, n * stepMicros, ...counts.map((c) => c[n])].join(","));
    }
    return { cfg, dat: new TextEncoder().encode(rows.join(CRLF) + CRLF) };
  }
  // BINARY: per sample a 4-byte sample number, a 4-byte time stamp and 2 bytes per analog
  // channel, little-endian; no digital channels, so no status words.
  const recordBytes = 8 + 2 * counts.length;
  const dat = new Uint8Array(samples * recordBytes);
  const view = new DataView(dat.buffer);
  for (let n = 0; n < samples; n++) {
    const at = n * recordBytes;
    view.setUint32(at, n + 1, true);
    view.setUint32(at + 4, n * stepMicros, true);
    counts.forEach((c, k) => view.setInt16(at + 8 + 2 * k, c[n]!, true));
  }
  return { cfg, dat };
}
