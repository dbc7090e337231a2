import assert from "node:assert/strict";
import { protocolViolations } from "./_protocol_check.ts";
import { actuatorCell, lineCell, stationCell, testCell, utilityCells } from "./_test_cells.ts";
import { allocateColumns, PHASE_NAMES, rowsPerWindow } from "./columns.ts";
import {
  generateBatch,
  generateColumns,
  generateRange,
  PQ_SLOT_MS,
  pqDelayWindows,
  pqSlotSentAt,
} from "./generate.ts";
import { type Batch, type Measurement, type ProtocolVersion, WINDOW_MS } from "./protocol.ts";
import { skyOfDay } from "./profiles.ts";
import type { SimCell } from "./topology.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Monday 2026-06-15 00:00 UTC. */
const MONDAY = Date.UTC(2026, 5, 15);

function batchAt(cell: SimCell, ms: number, seed = 42, protocol: ProtocolVersion = 2): Batch {
  const batch = generateBatch(cell, ms, seed, protocol);
  assert.ok(batch, `no batch for ${cell.cellId} at ${new Date(ms).toISOString()}`);
  return batch;
}

function row(batch: Batch, feeder: number, phase: Measurement["phase"]): Measurement {
  const found = batch.measurements.find((m) => m.feeder === feeder && m.phase === phase);
  assert.ok(found, `no row feeder ${feeder} ${phase}`);
  return found;
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

Deno.test("generateBatch() gives byte-identical JSON for the same cell, window and seed", () => {
  const w = MONDAY + 19 * HOUR;
  for (const make of [stationCell, actuatorCell]) {
    const first = JSON.stringify(generateBatch(make("c-1"), w, 7));
    const again = JSON.stringify(generateBatch(make("c-1"), w, 7));
    assert.equal(again, first);
  }
});

Deno.test("generateBatch() differs for another seed, cell or window", () => {
  const w = MONDAY + 19 * HOUR;
  const base = JSON.stringify(generateBatch(stationCell("c-1"), w, 7));
  assert.notEqual(JSON.stringify(generateBatch(stationCell("c-1"), w, 8)), base);
  assert.notEqual(JSON.stringify(generateBatch(stationCell("c-2"), w, 7)), base);
  assert.notEqual(JSON.stringify(generateBatch(stationCell("c-1"), w + WINDOW_MS, 7)), base);
  const a = batchAt(stationCell("c-1"), w, 7);
  const b = batchAt(stationCell("c-1"), w, 8);
  assert.notEqual(a.batch_id, b.batch_id);
  assert.match(a.batch_id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
});

Deno.test("generateBatch() stamps every record with the UTC window start and sends after it", () => {
  const w = Date.UTC(2026, 10, 22, 9, 0, 0);
  const batch = batchAt(stationCell("c-1"), w);
  for (const m of batch.measurements) assert.equal(m.ts, "2026-11-22T09:00:00Z");
  for (const io of batch.io) assert.equal(io.ts, "2026-11-22T09:00:00Z");
  const sentAt = Date.parse(batch.sent_at);
  assert.match(batch.sent_at, /^2026-11-22T09:00:2[1-3]Z$/);
  assert.ok(sentAt > w + WINDOW_MS);
  assert.equal(batch.measurements.length, 3 * 4);
});

Deno.test("generateBatch() refuses a window start that is not a multiple of 20 s", () => {
  assert.throws(() => generateBatch(stationCell("c-1"), MONDAY + 1000, 1), RangeError);
  assert.throws(() => generateBatch(stationCell("c-1"), MONDAY + 0.5, 1), /multiple of 20 s/);
});

Deno.test("generateBatch() keeps every value finite and inside the protocol ranges for a week", () => {
  const cells = [
    lineCell("res", "residential", 1),
    lineCell("com", "commercial", 0.2),
    lineCell("ind", "industrial", 0.6),
    lineCell("mix", "mixed", 0.8),
    stationCell("station"),
    actuatorCell("actuator"),
    testCell("us-120", [{ slot: 6, kind: "LV_LINE", nominalCurrentA: 400, profile: "mixed" }], {
      nominalVoltage: 120,
      frequency: 60,
      swappedMapping: true,
    }),
  ];
  for (const cell of cells) {
    for (let w = MONDAY; w < MONDAY + 7 * DAY; w += WINDOW_MS) {
      // Protocol v2 all week, v1 on the first day.
      const batch = batchAt(cell, w, 42, w < MONDAY + DAY && w % (3 * WINDOW_MS) === 0 ? 1 : 2);
      const violations = protocolViolations(batch);
      assert.deepEqual(violations, [], `${cell.cellId} ${batch.measurements[0]?.ts}`);
      if (batch.protocol === 2) {
        assert.equal(batch.pq !== undefined, pqSlotSentAt(cell, w) !== null, "pq once a slot");
      }
      for (const m of batch.measurements) {
        if (m.phase === "N") continue;
        const s = Math.sqrt(m.p! ** 2 + m.q! ** 2);
        // P, Q and pf are what U and I give (up to rounding).
        assert.ok(Math.abs(s - (m.u! * m.i!) / 1000) < 0.003 + 1e-4 * s, `${cell.cellId} S`);
        if (s > 0.05) assert.ok(Math.abs(m.pf! - m.p! / s) < 0.003, `${cell.cellId} pf`);
      }
    }
  }
});

Deno.test("generateBatch() returns null while the cell is offline", () => {
  const from = MONDAY + 10 * HOUR;
  const cell = { ...stationCell("c-off"), offline: [{ from, to: from + HOUR }] };
  assert.equal(generateBatch(cell, from, 1), null);
  assert.equal(generateBatch(cell, from + HOUR - WINDOW_MS, 1), null);
  assert.notEqual(generateBatch(cell, from - WINDOW_MS, 1), null);
  assert.notEqual(generateBatch(cell, from + HOUR, 1), null);
});

Deno.test("generateRange() yields the online windows of the range in order", () => {
  const from = MONDAY + 10 * HOUR;
  const cell = {
    ...lineCell("c-r", "mixed"),
    offline: [{ from: from + 60_000, to: from + 120_000 }],
  };
  const batches = [...generateRange(cell, from - 5_000, from + 200_000, 3)];
  const starts = batches.map((b) => Date.parse(b.measurements[0]!.ts) - from);
  assert.deepEqual(starts, [0, 20_000, 40_000, 120_000, 140_000, 160_000, 180_000]);
  assert.equal(JSON.stringify(batches[1]), JSON.stringify(generateBatch(cell, from + 20_000, 3)));
});

Deno.test("generateColumns() writes the same values as generateBatch() for every cell", () => {
  const cells = [stationCell("s"), actuatorCell("a"), lineCell("l", "commercial")];
  const offline = { ...lineCell("o", "residential"), offline: [{ from: 0, to: 8.64e15 }] };
  const all = [cells[0]!, offline, cells[1]!, cells[2]!];
  const cols = allocateColumns(rowsPerWindow(all) + 5);
  const w = MONDAY + 18 * HOUR;
  const rows = generateColumns(all, w, 11, cols, 5);
  assert.equal(rows, (3 + 5 + 1) * 4);
  const expected = cells.flatMap((c) => batchAt(c, w, 11, 1).measurements);
  for (let r = 0; r < rows; r++) {
    const m = expected[r]!;
    const at = r + 5;
    assert.equal(cols.ts[at], w);
    assert.equal(all[cols.cell[at]!]!.cellId, cells[r < 12 ? 0 : r < 32 ? 1 : 2]!.cellId);
    assert.equal(cols.feeder[at], m.feeder);
    assert.equal(PHASE_NAMES[cols.phase[at]!], m.phase);
    assert.equal(cols.i[at], m.i);
    if (m.phase === "N") {
      assert.ok(Number.isNaN(cols.u[at]!) && Number.isNaN(cols.hU[at * 24]!));
      continue;
    }
    assert.deepEqual(
      [cols.u[at], cols.p[at], cols.q[at], cols.pf[at], cols.thdU[at], cols.thdI[at]],
      [m.u, m.p, m.q, m.pf, m.thd_u, m.thd_i],
    );
    assert.deepEqual(
      [cols.f[at], cols.unbalance[at], cols.pst[at], cols.plt[at]],
      [m.f, m.unbalance, m.pst, m.plt],
    );
    assert.deepEqual(Array.from(cols.hU.subarray(at * 24, at * 24 + 24)), m.h_u);
  }
});

Deno.test("generateColumns() hands over the same events and I/O states as generateBatch(), values unchanged", () => {
  const cells = utilityCells();
  const window = MONDAY + 18 * HOUR;
  let withEvents = 0;
  for (let w = window; w < window + 2 * HOUR; w += WINDOW_MS) {
    const plain = allocateColumns(rowsPerWindow(cells));
    const cols = allocateColumns(rowsPerWindow(cells));
    generateColumns(cells, w, 7, plain);
    const seen = new Map<number, unknown>();
    generateColumns(cells, w, 7, cols, 0, (c, records) => seen.set(c, records));
    assert.deepEqual(cols.u, plain.u);
    assert.deepEqual(cols.hU, plain.hU);
    cells.forEach((cell, c) => {
      const batch = generateBatch(cell, w, 7);
      assert.deepEqual(seen.get(c), batch ? { events: batch.events, io: batch.io } : undefined);
      if (batch?.events.length) withEvents++;
    });
  }
  assert.ok(withEvents > 0, "the sample holds events");
});

Deno.test("generateColumns() refuses columns too small for the window", () => {
  const cells = [stationCell("s"), lineCell("l", "mixed")];
  assert.throws(
    () => generateColumns(cells, MONDAY, 1, allocateColumns(15)),
    /16 rows needed, capacity 15/,
  );
});

Deno.test("generateBatch() with swappedMapping reports the L1 current on probe 2, L2 on 3, L3 on 1", () => {
  const right = lineCell("c-map", "residential");
  const wrong: SimCell = { ...lineCell("c-map", "residential"), swappedMapping: true };
  const w = MONDAY + 19 * HOUR;
  const a = batchAt(right, w);
  const b = batchAt(wrong, w);
  assert.equal(row(b, 1, "L2").i, row(a, 1, "L1").i);
  assert.equal(row(b, 1, "L3").i, row(a, 1, "L2").i);
  assert.equal(row(b, 1, "L1").i, row(a, 1, "L3").i);
  for (const phase of ["L1", "L2", "L3"] as const) {
    // Voltages stay on their channels; the power factor a device computes turns implausible.
    assert.equal(row(b, 1, phase).u, row(a, 1, phase).u);
    assert.ok(row(a, 1, phase).pf! > 0.9);
    assert.ok(row(b, 1, phase).pf! < 0.6, `pf ${row(b, 1, phase).pf}`);
  }
  assert.equal(row(b, 1, "N").i, row(a, 1, "N").i);
});

Deno.test("generateBatch() gives a far node a lower mean voltage than a near node under load", () => {
  const near = lineCell("c-v", "residential", 0);
  const far = lineCell("c-v", "residential", 1);
  const mean = (cell: SimCell) => {
    const u: number[] = [];
    for (let w = MONDAY + 17 * HOUR; w < MONDAY + 19 * HOUR; w += WINDOW_MS) {
      u.push(...batchAt(cell, w).measurements.filter((m) => m.u !== undefined).map((m) => m.u!));
    }
    return sum(u) / u.length;
  };
  const gap = mean(near) - mean(far);
  assert.ok(gap > 0.02 * 230, `near - far = ${gap.toFixed(2)} V`);
});

Deno.test("generateBatch() makes a residential evening peak well above the night minimum", () => {
  const cell = lineCell("c-res", "residential");
  const current = (fromHourUtc: number) => {
    const i: number[] = [];
    for (
      let w = MONDAY + fromHourUtc * HOUR;
      w < MONDAY + (fromHourUtc + 1) * HOUR;
      w += WINDOW_MS
    ) {
      const b = batchAt(cell, w);
      i.push(sum(["L1", "L2", "L3"].map((p) => row(b, 1, p as "L1").i)));
    }
    return sum(i) / i.length;
  };
  // 19:00-20:00 and 03:00-04:00 local (CEST) time.
  assert.ok(current(17) > 2.5 * current(1), `${current(17)} vs ${current(1)}`);
});

Deno.test("generateBatch() charges EVs in the evening in 11 kW blocks and heats boilers at night", () => {
  const cell = actuatorCell("c-act");
  let evening = 0;
  for (let w = MONDAY + 16 * HOUR; w < MONDAY + 20 * HOUR; w += 5 * 60_000) {
    const b = batchAt(cell, w);
    const kw = sum(["L1", "L2", "L3"].map((p) => row(b, 3, p as "L1").p!)) - 0.024;
    const blocks = kw / 11;
    if (b.events.length === 0) assert.ok(Math.abs(blocks - Math.round(blocks)) < 0.02, `${kw} kW`);
    evening = Math.max(evening, Math.round(blocks));
  }
  assert.ok(evening >= 1, "no car charged in the evening");
  // 23:30 local: every boiler run (22:00-22:45 start, 2.5-5.5 h) is on.
  const night = batchAt(cell, MONDAY + 21.5 * HOUR);
  const noon = batchAt(cell, MONDAY + 10 * HOUR);
  assert.ok(row(night, 4, "L1").p! > 0.9 * 230 * 20 / 1000 * 0.9);
  assert.ok(row(noon, 4, "L1").p! < 0.01);
  const relay = (b: Batch) => b.io.find((io) => io.module === 2 && io.channel === 1)?.value;
  assert.deepEqual([relay(night), relay(noon)], [1, 0]);
});

Deno.test("generateBatch() keeps harmonics consistent with THD U, 5th and 7th dominant", () => {
  for (const cell of [stationCell("h-1"), actuatorCell("h-2")]) {
    for (let w = MONDAY; w < MONDAY + DAY; w += 37 * WINDOW_MS) {
      for (const m of batchAt(cell, w, 42, 1).measurements) {
        if (m.phase === "N") continue;
        const h = m.h_u!;
        assert.ok(m.thd_u! >= 1 && m.thd_u! <= 4);
        assert.ok(Math.abs(Math.sqrt(sum(h.map((x) => x * x))) - m.thd_u!) < 0.05);
        const ranked = h.map((x, k) => [x, k + 2] as const).sort((a, b) => b[0] - a[0]);
        assert.deepEqual([ranked[0]![1], ranked[1]![1]].sort(), [5, 7]);
        assert.ok(h[2]! < h[1]!, "4th below 3rd");
      }
    }
  }
});

Deno.test("generateBatch() gives EV and PV feeders a higher current THD than a residential line", () => {
  const mean = (cell: SimCell, feeder: number, hours: number[]) => {
    const values = hours.map((h) => row(batchAt(cell, MONDAY + h * HOUR), feeder, "L1").thd_i!);
    return sum(values) / values.length;
  };
  const line = mean(lineCell("t-1", "residential"), 1, [8, 10, 12, 17, 18]);
  const act = actuatorCell("t-2");
  assert.ok(mean(act, 1, [8, 10, 12]) > line, "PV");
  assert.ok(mean(act, 3, [16, 17, 18]) > line, "EV");
});

Deno.test("generateBatch() keeps the frequency near nominal and the neutral near the vector sum", () => {
  const us = testCell("f-60", [{
    slot: 1,
    kind: "LV_LINE",
    nominalCurrentA: 200,
    profile: "mixed",
  }], {
    nominalVoltage: 120,
    frequency: 60,
  });
  for (let w = MONDAY; w < MONDAY + DAY; w += 13 * WINDOW_MS) {
    const eu = batchAt(stationCell("f-50"), w);
    for (const m of eu.measurements) if (m.f !== undefined) assert.ok(Math.abs(m.f - 50) <= 0.052);
    const b = batchAt(us, w);
    assert.ok(Math.abs(row(b, 1, "L1").f! - 60) <= 0.052);
    const phases = ["L1", "L2", "L3"].map((p) => row(b, 1, p as "L1").i);
    const n = row(b, 1, "N").i;
    assert.ok(n < Math.max(...phases), "neutral below the largest phase");
    assert.ok(n > 0);
  }
});

Deno.test("generateBatch() makes a PV feeder export at noon on a clear day, ~0 at night", () => {
  const day = [...Array(60).keys()].map((k) => MONDAY / DAY + k).find((d) =>
    skyOfDay(d, 42) === "clear"
  );
  assert.ok(day !== undefined, "a clear day in June");
  const cell = actuatorCell("c-pv");
  const noon = batchAt(cell, day * DAY + 11.5 * HOUR);
  const night = batchAt(cell, day * DAY + 0.5 * HOUR);
  for (const phase of ["L1", "L2", "L3"] as const) {
    const pvPeakKw = (230 * 40) / 1000;
    assert.ok(row(noon, 1, phase).p! < -0.7 * pvPeakKw, `noon ${row(noon, 1, phase).p} kW`);
    assert.ok(Math.abs(row(night, 1, phase).p!) < 0.01, `night ${row(night, 1, phase).p} kW`);
    assert.ok(row(night, 1, phase).i < 0.1);
  }
  // PV export at the end of a line lifts the voltage above the same line without PV.
  const line = (pvPeakA: number) =>
    testCell("c-rise", [{
      slot: 1,
      kind: "LV_LINE",
      nominalCurrentA: 250,
      profile: "residential",
      pvPeakA,
    }], {
      electricalDistance: 1,
    });
  const u = (cell: SimCell) => row(batchAt(cell, day * DAY + 11.5 * HOUR), 1, "L2").u!;
  assert.ok(u(line(200)) > 1.02 * u(line(0)), `${u(line(200))} vs ${u(line(0))}`);
});

Deno.test("generateColumns() fills a day of a 30-cell utility in well under a few seconds", () => {
  const cells = utilityCells();
  const cols = allocateColumns(rowsPerWindow(cells));
  const started = performance.now();
  let rows = 0;
  for (let w = MONDAY; w < MONDAY + DAY; w += WINDOW_MS) rows += generateColumns(cells, w, 1, cols);
  const seconds = (performance.now() - started) / 1000;
  assert.equal(rows, 4320 * 240);
  // About 0.3 s on a laptop core; the bound only catches a fall back to minutes.
  assert.ok(seconds < 6, `${rows} rows took ${seconds.toFixed(2)} s`);
});

Deno.test("generateBatch() v2 sends a slot's PQ records once, in the next slot: the v1 values folded on the device", () => {
  const cell = {
    ...stationCell("pq-1"),
    offline: [{ from: MONDAY + 60_000, to: MONDAY + 100_000 }],
  };
  const slot = MONDAY;
  const delay = pqDelayWindows(cell);
  const sending = Array.from({ length: 30 }, (_, k) => slot + PQ_SLOT_MS + (k - 1) * WINDOW_MS)
    .filter((w) => batchAt(cell, w).pq?.some((r) => r.slot === "2026-06-15T00:00:00Z"));
  assert.deepEqual(sending, [slot + PQ_SLOT_MS + (delay - 1) * WINDOW_MS]);
  const last = batchAt(cell, sending[0]!);
  assert.equal(last.protocol, 2);
  // Cells spread their records: the delays of a utility's cells differ.
  const delays = new Set(utilityCells().map(pqDelayWindows));
  assert.ok(delays.size >= 10, `delays ${[...delays]}`);
  const records = last.pq!;
  // One record per feeder and phase conductor (the station has 3 feeders), no neutral.
  assert.equal(records.length, 3 * 3);
  assert.ok(records.every((r) => r.slot === "2026-06-15T00:00:00Z" && r.phase !== ("N" as string)));
  // The fold of the v1 values of the online windows (2 of 30 offline).
  const v1: Batch[] = [];
  for (let w = slot; w < slot + PQ_SLOT_MS; w += WINDOW_MS) {
    const batch = generateBatch(cell, w, 42, 1);
    if (batch) v1.push(batch);
  }
  assert.equal(v1.length, 28);
  for (const record of records) {
    const rows: Measurement[] = v1.map((b) => row(b, record.feeder, record.phase));
    const rms = (k: number) =>
      Math.sqrt(sum(rows.map((m) => Math.fround(m.h_u![k]!) ** 2)) / rows.length);
    for (const k of [0, 3, 5, 23]) assert.ok(Math.abs(record.h_u![k]! - rms(k)) <= 0.005 + 1e-6);
    assert.equal(record.pst, Math.max(...rows.map((m) => m.pst!)));
    assert.equal(record.plt, Math.max(...rows.map((m) => m.plt!)));
    const unbalance = sum(rows.map((m) => m.unbalance!)) / rows.length;
    assert.ok(Math.abs(record.unbalance! - unbalance) <= 0.005 + 1e-6);
  }
  for (const m of last.measurements) {
    assert.equal("h_u" in m || "pst" in m || "plt" in m || "unbalance" in m, false);
  }
});
