import assert from "node:assert/strict";
import { lineCell } from "./_test_cells.ts";
import { generateBatch } from "./generate.ts";
import { answerRecordingCommands, simulatedRecording } from "./recordings.ts";
import type { RecordingBehaviour, SimCell } from "./topology.ts";
import type { VoltageEvent } from "./protocol.ts";

/** The newest event of `cell` before `fromMs` (windows scanned backwards). */
function findEvent(cell: SimCell, fromMs: number): VoltageEvent {
  for (let w = fromMs - (fromMs % 20_000); w > fromMs - 30 * 86_400_000; w -= 20_000) {
    const event = generateBatch(cell, w, 42, 1)?.events?.find((e) => e.type === "DIP");
    if (event) return event;
  }
  throw new Error("no event in 30 days");
}

const cell = lineCell("CGW-REC-1", "residential");
const event = findEvent(cell, Date.UTC(2026, 10, 20));

Deno.test("simulatedRecording() finds the cell's own event from its id alone", () => {
  const file = simulatedRecording(cell, 42, event.id);
  assert.ok(file);
  assert.equal(file.event_id, event.id);
  assert.equal(file.channels.length, 3);
  const hit = file.channels.find((c) => c.phase === event.start_phase)!;
  assert.deepEqual(hit.values, event.rms_trace.values_pct.map((v) => Math.round(v * 230) / 100));
  assert.equal(
    Date.parse(file.first_sample),
    Date.parse(event.start) - 2 * event.rms_trace.interval_ms,
  );
  assert.equal(simulatedRecording(cell, 42, "evt-zz-1-0"), null);
  assert.equal(simulatedRecording(cell, 42, "not an id"), null);
  // Another cell has no such event.
  assert.equal(simulatedRecording(lineCell("CGW-REC-2", "residential"), 42, event.id), null);
});

for (
  const [behaviour, expected] of [
    ["GOOD", "UPLOADED"],
    ["CORRUPT", "CORRUPTED"],
    ["TIMEOUT", "SILENT"],
    ["ERROR", "ERROR"],
  ] as [RecordingBehaviour, string][]
) {
  Deno.test(`answerRecordingCommands() ${behaviour} cell answers ${expected}`, async () => {
    const calls: { url: string; init?: RequestInit }[] = [];
    const fake = ((url: string | URL | Request, init?: RequestInit) => {
      calls.push({ url: String(url), ...(init ? { init } : {}) });
      if (String(url).endsWith("/configuration")) {
        return Promise.resolve(Response.json({
          commands: [{
            id: "r1",
            kind: "UPLOAD_EVENT_RECORDING",
            event_id: event.id,
            upload_path: "/ingest/v1/recordings/r1",
          }],
        }));
      }
      return Promise.resolve(new Response(null, { status: 204 }));
    }) as typeof fetch;
    const out = await answerRecordingCommands({
      baseUrl: "http://cell.test",
      cell: { ...cell, recordingBehaviour: behaviour },
      seed: 42,
      fetch: fake,
    });
    assert.equal(out.get("r1"), expected);
    const upload = calls.find((c) => c.init?.method === "PUT");
    if (behaviour === "GOOD" || behaviour === "CORRUPT") {
      const bytes = upload!.init!.body as Uint8Array;
      const digest = new Uint8Array(
        await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>),
      );
      const hex = [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
      const header = new Headers(upload!.init!.headers).get("x-content-sha256");
      assert.equal(hex === header, behaviour === "GOOD");
    } else {
      assert.equal(upload, undefined);
    }
  });
}
