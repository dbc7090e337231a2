/**
 * The files of a downloaded recording: a zip of the COMTRADE .cfg and .dat (ASCII or binary) with
 * a CSV of the same trace, or the CSV alone. The CSV: `time_utc` (ISO-8601 with ms), then one
 * column per phase `UL1_V`, `UL2_V`, `UL3_V` (Urms(1/2) in V, 3 decimals), CRLF, UTF-8.
 */
import { strToU8, zipSync } from "fflate";
import { type ComtradeFormat, writeComtrade } from "./comtrade.ts";
import type { CellPlace } from "./service.ts";
import type { RecordingFile } from "./recordings.ts";

/** The CSV of a recording. */
export function recordingCsv(file: RecordingFile): string {
  const first = Date.parse(file.first_sample);
  const samples = Math.min(...file.channels.map((c) => c.values.length));
  const lines = [["time_utc", ...file.channels.map((c) => `U${c.phase}_V`)].join(",")];
  for (let n = 0; n < samples; n++) {
    lines.push([
      new Date(first + n * file.interval_ms).toISOString(),
      ...file.channels.map((c) => c.values[n]!.toFixed(3)),
    ].join(","));
  }
  return lines.join("\r\n") + "\r\n";
}

/** A base name for the files: the event's start and the cell, e.g. `20261122T085941120Z_CGW1`. */
export function recordingBaseName(cellId: string, startMs: number): string {
  const stamp = new Date(startMs).toISOString().replace(/[-:.]/g, "");
  return `${stamp}_${cellId.replace(/[^\w-]/g, "_")}`;
}

/** The zip of a recording's COMTRADE files and CSV. */
export function recordingZip(
  file: RecordingFile,
  place: CellPlace,
  eventStartMs: number,
  format: ComtradeFormat,
): Uint8Array {
  const files = writeComtrade({
    station: `${place.ewName} ${place.nodeName}`,
    device: place.cellId,
    frequency: file.frequency,
    firstSampleMs: Date.parse(file.first_sample),
    triggerMs: eventStartMs,
    intervalMs: file.interval_ms,
    channels: file.channels.map((c) => ({
      name: `U${c.phase} RMS`,
      phase: c.phase,
      component: place.nodeName,
      unit: "V",
      values: c.values,
    })),
  }, format);
  const base = recordingBaseName(place.cellId, eventStartMs);
  return zipSync({
    [`${base}.cfg`]: strToU8(files.cfg),
    [`${base}.dat`]: files.dat,
    [`${base}.csv`]: strToU8(recordingCsv(file)),
  }, { mtime: new Date(eventStartMs) });
}
