import assert from "node:assert/strict";
import { classifyEvent } from "../events/classify.ts";
import { THRESHOLDS } from "../events/tables.ts";
import { cellPlan, windowContext } from "./_context.ts";
import { Demand } from "./_demand.ts";
import { protocolViolations } from "./_protocol_check.ts";
import { actuatorCell, lineCell, stationCell, testCell } from "./_test_cells.ts";
import { generateBatch } from "./generate.ts";
import { type Batch, type VoltageEvent, WINDOW_MS } from "./protocol.ts";
import type { SimCell } from "./topology.ts";
import { EVENT_RATES, planEvents, type PlannedEvent } from "./voltage_events.ts";

const DAY = 86_400_000;
const FROM = Date.UTC(2026, 0, 5);
const SEED = 42;

/** Windows in [from, to) where `cell` has a dip, swell or interruption (cheap scan). */
function eventWindows(cell: SimCell, from: number, to: number): number[] {
  const plan = cellPlan(cell);
  const ctx = windowContext(from, SEED);
  const pre = new Float64Array([100, 100, 100]);
  const meanSquare = new Float64Array(3);
  const demand = new Demand();
  const out: PlannedEvent[] = [];
  const found: number[] = [];
  for (let w = from; w < to; w += WINDOW_MS) {
    ctx.startMs = w;
    ctx.windowIndex = w / WINDOW_MS;
    out.length = 0;
    planEvents(ctx, plan, pre, demand, meanSquare, out);
    if (out.length > 0) found.push(w);
  }
  return found;
}

function batchAt(cell: SimCell, w: number): Batch {
  const batch = generateBatch(cell, w, SEED);
  assert.ok(batch);
  return batch;
}

function phaseU(batch: Batch, phase: string): number {
  return batch.measurements.find((m) => m.feeder === 1 && m.phase === phase)!.u!;
}

const cells = [
  lineCell("ev-a", "residential", 0.3),
  stationCell("ev-b"),
  lineCell("ev-c", "mixed", 1),
];
const YEAR = 364 * DAY;
const found = cells.map((cell) => ({ cell, windows: eventWindows(cell, FROM, FROM + YEAR) }));

Deno.test("generateBatch() reports dips, swells and interruptions in range with RMS traces", () => {
  const seen = new Set<string>();
  for (const { cell, windows } of found) {
    for (const w of windows) {
      const batch = batchAt(cell, w);
      assert.deepEqual(protocolViolations(batch), []);
      const magnitude = batch.events.filter((e) => e.type !== "RVC");
      assert.equal(magnitude.length, 1);
      const e = magnitude[0]!;
      seen.add(e.type);
      const start = Date.parse(e.start);
      const end = Date.parse(e.end);
      assert.ok(start >= w && end < w + WINDOW_MS, "inside its window");
      const values = e.rms_trace.values_pct;
      assert.equal(values.length, EVENT_RATES.traceLength);
      const [low, high, shortest, longest] = e.type === "DIP"
        ? [...EVENT_RATES.dipResidualPct, ...EVENT_RATES.dipDurationMs]
        : e.type === "SWELL"
        ? [...EVENT_RATES.swellPeakPct, ...EVENT_RATES.swellDurationMs]
        : [...EVENT_RATES.interruptionResidualPct, ...EVENT_RATES.interruptionDurationMs];
      assert.ok(e.extreme_pct >= low && e.extreme_pct <= high, `${e.type} ${e.extreme_pct}`);
      assert.ok(end - start >= shortest && end - start <= longest, `${e.type} ${end - start} ms`);
      assert.equal(e.extreme_pct, e.type === "SWELL" ? Math.max(...values) : Math.min(...values));
      assert.ok(values[0]! > 90 && values[0]! < 110, "trace starts at the steady level");
      assert.equal(e.delta_u_pct, null);
    }
  }
  assert.deepEqual([...seen].sort(), ["DIP", "INTERRUPTION", "SWELL"]);
});

Deno.test("the simulated extremes lie in their family: the platform never refuses a cell's event", () => {
  // The whole drawn range, ends included (the draw is clamped to them): a swell of exactly 110 %
  // was refused with ingest.eventInconsistent.
  assert.ok(EVENT_RATES.swellPeakPct[0] > THRESHOLDS.swellStartPct);
  assert.ok(EVENT_RATES.dipResidualPct[1] < THRESHOLDS.dipStartPct);
  assert.ok(EVENT_RATES.dipResidualPct[0] >= THRESHOLDS.interruptionPct);
  assert.ok(EVENT_RATES.interruptionResidualPct[1] < THRESHOLDS.interruptionPct);
  for (const { cell, windows } of found) {
    for (const w of windows) {
      for (const e of batchAt(cell, w).events) {
        const classified = classifyEvent(e);
        if (e.type !== "RVC") assert.equal(classified.reclassified, null, e.id);
      }
    }
  }
});

Deno.test("generateBatch() draws a few dips a week per cell and rarer swells", () => {
  for (const { cell, windows } of found) {
    const types = windows.map((w) => batchAt(cell, w).events[0]!.type);
    const perWeek = (type: string) => types.filter((t) => t === type).length / 52;
    assert.ok(perWeek("DIP") > 1.5 && perWeek("DIP") < 5, `${cell.cellId} dips ${perWeek("DIP")}`);
    assert.ok(perWeek("SWELL") < perWeek("DIP") / 3);
    assert.ok(perWeek("INTERRUPTION") < 0.3);
  }
});

Deno.test("generateBatch() lowers the 20-s voltage of the window a dip or interruption falls in", () => {
  let checked = 0;
  for (const { cell, windows } of found) {
    for (const w of windows) {
      const batch = batchAt(cell, w);
      const e = batch.events[0]!;
      const neighbours = [batchAt(cell, w - WINDOW_MS), batchAt(cell, w + WINDOW_MS)];
      const around = neighbours.map((b) => phaseU(b, e.start_phase));
      const u = phaseU(batch, e.start_phase);
      if (e.type === "INTERRUPTION") {
        assert.ok(u < 0.97 * Math.min(...around), `interruption ${u} vs ${around}`);
        const i = (b: Batch) => b.measurements.find((m) => m.phase === "L1")!.i;
        assert.ok(i(batch) < Math.min(...neighbours.map(i)), "currents stop");
        checked++;
      } else if (
        e.type === "DIP" && e.extreme_pct < 75 && Date.parse(e.end) - Date.parse(e.start) >= 400
      ) {
        assert.ok(u < Math.min(...around), `dip ${u} vs ${around}`);
        checked++;
      }
    }
  }
  assert.ok(checked >= 5, `${checked} events checked`);
});

Deno.test("generateBatch() shows MV dips at every cell in the same window", () => {
  const shared = found[0]!.windows.filter((w) => found[1]!.windows.includes(w));
  assert.ok(shared.length >= 20, `${shared.length} shared windows`);
  const events = (cell: SimCell, w: number): VoltageEvent => batchAt(cell, w).events[0]!;
  const w = shared[0]!;
  const a = events(cells[0]!, w);
  const b = events(cells[1]!, w);
  assert.deepEqual([a.type, a.start, a.end], [b.type, b.start, b.end]);
});

Deno.test("generateBatch() reports an RVC when an EV charger switches at the end of the grid", () => {
  const far = actuatorCell("rvc-far");
  const near = testCell("rvc-near", [{
    slot: 1,
    kind: "EVSE",
    nominalCurrentA: 64,
    profile: "mixed",
  }], {
    electricalDistance: 0,
  });
  const rvc = (cell: SimCell) => {
    const out: VoltageEvent[] = [];
    for (let w = FROM + 14 * 3_600_000; w < FROM + 2 * DAY; w += WINDOW_MS) {
      out.push(...batchAt(cell, w).events.filter((e) => e.type === "RVC"));
    }
    return out;
  };
  const events = rvc(far);
  assert.ok(events.length >= 2, `${events.length} RVCs`);
  const step = 0.3 + 1.2 * far.electricalDistance;
  for (const e of events) {
    assert.ok(Math.abs(e.delta_u_pct! - step) <= 0.05 * step + 0.01, `delta ${e.delta_u_pct}`);
    const values = e.rms_trace.values_pct;
    assert.equal(values.length, EVENT_RATES.traceLength);
    assert.equal(e.rms_trace.interval_ms, EVENT_RATES.rvcTraceIntervalMs);
    assert.ok(Math.abs(Math.abs(values[0]! - values.at(-1)!) - e.delta_u_pct!) < 0.3);
    assert.ok(e.extreme_pct > 90 && e.extreme_pct < 110, "inside the dip and swell thresholds");
  }
  assert.deepEqual(rvc(near), [], "a step below the threshold is no RVC");
});
