/**
 * The cell side of event recordings (docs/cell-configuration.md, "Commands"): a simulated cell
 * keeps, for each event it detected, a recording of the three phases' Urms(1/2) around it. It
 * finds an event again from its id alone (the id names the 20-s window, which the simulator
 * regenerates identically), polls its configuration, and answers each UPLOAD_EVENT_RECORDING
 * command as its `recordingBehaviour` says: GOOD uploads the file with its SHA-256, CORRUPT
 * uploads a file altered after its checksum was taken, TIMEOUT stays silent, ERROR reports that
 * it cannot read its files; an event it does not know is reported NOT_FOUND.
 */
import { isOffline } from "./_context.ts";
import { generateBatch } from "./generate.ts";
import { WINDOW_MS } from "./protocol.ts";
import type { SimCell } from "./topology.ts";

/** The recording file a cell uploads (format gridwatch-rms/1). */
export interface SimRecordingFile {
  format: "gridwatch-rms/1";
  event_id: string;
  first_sample: string;
  interval_ms: number;
  frequency: 50 | 60;
  channels: { phase: "L1" | "L2" | "L3"; unit: "V"; values: number[] }[];
}

const PHASES = ["L1", "L2", "L3"] as const;
const ID = /^evt-([0-9a-z]+)-([0-9a-z]+)-(\d+)$/;

/**
 * The recording `cell` keeps of its event `eventId`, or `null` when it detected no such event.
 * The phase the event started on follows the event's own trace; the phase it ended on dips
 * half as deep; the third stays at the level before the event.
 */
export function simulatedRecording(
  cell: SimCell,
  seed: number,
  eventId: string,
): SimRecordingFile | null {
  const match = ID.exec(eventId);
  if (!match) return null;
  const windowStart = Number.parseInt(match[2]!, 36) * WINDOW_MS;
  if (!Number.isSafeInteger(windowStart)) return null;
  const event = generateBatch(cell, windowStart, seed, 1)?.events?.find((e) => e.id === eventId);
  if (!event) return null;
  const { interval_ms: interval, values_pct: trace } = event.rms_trace;
  const pre = trace[0] ?? 100;
  const volts = (pct: number) => Math.round(pct * cell.nominalVoltage) / 100;
  const channels = PHASES.map((phase, k) => {
    const values = trace.map((v, n) => {
      if (phase === event.start_phase) return volts(v);
      if (phase === event.end_phase) return volts(pre + (v - pre) / 2);
      // Deterministic ripple of ±0.1 % on an unaffected phase.
      return volts(pre + 0.1 * Math.sin(n + k));
    });
    return { phase, unit: "V" as const, values };
  });
  return {
    format: "gridwatch-rms/1",
    event_id: eventId,
    // The trace starts two values before the event (core/simulator/voltage_events.ts).
    first_sample: new Date(Date.parse(event.start) - 2 * interval).toISOString(),
    interval_ms: interval,
    frequency: cell.frequency === 60 ? 60 : 50,
    channels,
  };
}

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** What one poll did, per command id. */
export type CommandOutcome = "UPLOADED" | "CORRUPTED" | "SILENT" | "NOT_FOUND" | "ERROR";

/**
 * One configuration poll of `cell` against `baseUrl` and its answers to the recording commands
 * in it. Returns what it did per command (a failed HTTP call throws).
 */
export async function answerRecordingCommands(
  options: { baseUrl: string; cell: SimCell; seed: number; fetch?: typeof fetch },
): Promise<Map<string, CommandOutcome>> {
  const { baseUrl, cell, seed } = options;
  const send = options.fetch ?? fetch;
  const auth = { authorization: `Bearer ${cell.credential}` };
  const res = await send(`${baseUrl}/ingest/v1/configuration`, { headers: auth });
  if (!res.ok) throw new Error(`Configuration poll of ${cell.cellId} answered ${res.status}`);
  const config = await res.json() as {
    commands?: { id: string; kind: string; event_id?: string; upload_path?: string }[];
  };
  const out = new Map<string, CommandOutcome>();
  const behaviour = cell.recordingBehaviour ?? "GOOD";
  for (const command of config.commands ?? []) {
    if (command.kind !== "UPLOAD_EVENT_RECORDING" || !command.upload_path) continue;
    if (behaviour === "TIMEOUT") {
      out.set(command.id, "SILENT");
      continue;
    }
    const fail = async (reason: "NOT_FOUND" | "ERROR") => {
      const r = await send(`${baseUrl}${command.upload_path}/failure`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ reason }),
      });
      await r.body?.cancel();
      out.set(command.id, reason);
    };
    if (behaviour === "ERROR") {
      await fail("ERROR");
      continue;
    }
    const file = simulatedRecording(cell, seed, command.event_id ?? "");
    if (!file) {
      await fail("NOT_FOUND");
      continue;
    }
    const bytes = new TextEncoder().encode(JSON.stringify(file));
    const checksum = await sha256Hex(bytes);
    // A flipped bit on the way (or on the cell's flash): the checksum no longer matches.
    if (behaviour === "CORRUPT") bytes[Math.floor(bytes.length / 2)]! ^= 0x01;
    const r = await send(`${baseUrl}${command.upload_path}`, {
      method: "PUT",
      headers: {
        ...auth,
        "content-type": "application/octet-stream",
        "x-content-sha256": checksum,
      },
      body: bytes,
    });
    await r.body?.cancel();
    out.set(command.id, behaviour === "CORRUPT" ? "CORRUPTED" : "UPLOADED");
  }
  return out;
}

/**
 * Polls every online cell's configuration every `intervalMs` and answers its recording commands, until
 * `signal` aborts. Errors of one cell are reported and do not stop the others.
 */
export async function runRecordingCells(options: {
  baseUrl: string;
  cells: readonly SimCell[];
  seed: number;
  intervalMs: number;
  signal: AbortSignal;
  onError?: (cellId: string, error: unknown) => void;
}): Promise<void> {
  const { signal } = options;
  while (!signal.aborted) {
    for (const cell of options.cells) {
      if (signal.aborted) return;
      // An offline cell hears no command (its downloads time out).
      if (isOffline(cell, Date.now())) continue;
      try {
        await answerRecordingCommands({ baseUrl: options.baseUrl, cell, seed: options.seed });
      } catch (error) {
        options.onError?.(cell.cellId, error);
      }
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, options.intervalMs);
      signal.addEventListener("abort", () => {
        clearTimeout(timer);
        resolve();
      }, { once: true });
    });
  }
}
