import assert from "node:assert/strict";
import { lineCell, stationCell } from "./_test_cells.ts";
import { SIM_IO, temperatureToMa } from "./device.ts";
import { generateBatch } from "./generate.ts";
import type { Batch, IoRecord } from "./protocol.ts";
import type { SimCell } from "./topology.ts";

const HOUR = 3_600_000;
/** Monday 2026-06-15 00:00 UTC (02:00 in Zurich) and a winter Monday. */
const JUNE = Date.UTC(2026, 5, 15);
const JANUARY = Date.UTC(2026, 0, 12);

function io(cell: SimCell, ms: number, wiring: Pick<IoRecord, "module" | "channel">, seed = 42) {
  const batch = generateBatch(cell, ms, seed) as Batch;
  return batch.io.find((r) => r.module === wiring.module && r.channel === wiring.channel);
}

Deno.test("temperatureToMa() maps -20..80 °C onto 4-20 mA, clamped, to 0.01 mA", () => {
  assert.deepEqual([-20, 30, 80, -50, 120].map(temperatureToMa), [4, 12, 20, 4, 20]);
  assert.equal(temperatureToMa(21.37), 10.62);
});

Deno.test("ioRecords() sends the cabinet temperature on module 3 as AI, warmer in summer afternoons", () => {
  const cell = stationCell("io-1");
  const record = io(cell, JUNE + 13 * HOUR, SIM_IO.temperature)!;
  assert.equal(record.kind, "AI");
  const celsius = (ma: number) => -20 + ((ma - 4) * 100) / 16;
  const summer = celsius(record.value);
  const winterNight = celsius(io(cell, JANUARY + 3 * HOUR, SIM_IO.temperature)!.value);
  assert.ok(summer > 20 && summer < 45, `${summer} °C`);
  assert.ok(winterNight > -10 && winterNight < 15, `${winterNight} °C`);
  assert.ok(summer - winterNight > 10);
  // Deterministic per seed, different for another seed somewhere in the day.
  assert.equal(io(cell, JUNE + 13 * HOUR, SIM_IO.temperature)!.value, record.value);
  const day = Array.from({ length: 24 }, (_, h) => JUNE + h * HOUR);
  assert.notDeepEqual(
    day.map((t) => io(cell, t, SIM_IO.temperature, 1)!.value),
    day.map((t) => io(cell, t, SIM_IO.temperature, 2)!.value),
  );
});

Deno.test("ioRecords() releases the boilers at night on cells without a boiler feeder (DO, module 2)", () => {
  const cell = lineCell("io-2", "residential");
  // 00:00 and 04:00 UTC are 02:00 and 06:00+ in Zurich summer time; 12:00 UTC is 14:00.
  const relay = (ms: number) => io(cell, ms, SIM_IO.boilerRelay)!;
  assert.equal(relay(JUNE + 1 * HOUR).kind, "DO");
  assert.deepEqual([relay(JUNE + 1 * HOUR).value, relay(JUNE + 12 * HOUR).value], [1, 0]);
  assert.equal(io(cell, JUNE, SIM_IO.door)!.kind, "DI");
});
