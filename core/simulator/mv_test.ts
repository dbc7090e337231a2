import assert from "node:assert/strict";
import {
  actuatorCell,
  lineCell,
  MV_NOMINAL_16KV,
  mvStationCell,
  stationCell,
  utilityCells,
} from "./_test_cells.ts";
import { generateBatch } from "./generate.ts";
import { type Batch, type Measurement, WINDOW_MS } from "./protocol.ts";
import { parseSimCells } from "./topology.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Monday 2026-06-15 00:00 UTC. */
const MONDAY = Date.UTC(2026, 5, 15);

/** Protocol v1: every 20-s value with its PQ values, as before protocol v2 existed. */
function batchAt(cell: Parameters<typeof generateBatch>[0], ms: number, seed = 42): Batch {
  const batch = generateBatch(cell, ms, seed, 1);
  assert.ok(batch, `no batch for ${cell.cellId}`);
  return batch;
}

const rowsOf = (batch: Batch, feeder: number): Measurement[] =>
  batch.measurements.filter((m) => m.feeder === feeder && m.phase !== "N");

Deno.test("an MV line and an MV-estimating transformer report MV values over a day", () => {
  const cell = mvStationCell("ts-mv");
  const un = MV_NOMINAL_16KV;
  for (const day of [MONDAY, Date.UTC(2026, 0, 12)]) {
    const u: number[] = [];
    const lineI: number[] = [];
    for (let w = day; w < day + DAY; w += WINDOW_MS) {
      const batch = batchAt(cell, w);
      for (const feeder of [1, 6]) {
        for (const m of rowsOf(batch, feeder)) {
          u.push(m.u!);
          if (feeder === 6) lineI.push(m.i);
          // Power is what the MV voltage and current give.
          const s = Math.sqrt(m.p! ** 2 + m.q! ** 2);
          assert.ok(Math.abs(s - (m.u! * m.i!) / 1000) < 0.01 + 1e-4 * s);
        }
      }
      const mv = rowsOf(batch, 6)[0]!;
      const lv = rowsOf(batch, 2)[0]!;
      assert.ok(mv.thd_u! < lv.thd_u!, "MV THD U is lower than LV");
      assert.ok(mv.thd_u! <= 2.5 && mv.pst! <= 0.3);
    }
    // Within +-10 % of the MV nominal phase voltage (no interruption in these days).
    assert.ok(Math.min(...u) >= 0.9 * un && Math.max(...u) <= 1.1 * un, `${Math.min(...u)}`);
    // MV varies little: about +-1.5 % over a day.
    assert.ok(Math.max(...u) - Math.min(...u) < 0.04 * un);
    // Tens of A on a 200 A MV cable, more at the evening peak than at night.
    const mean = lineI.reduce((a, b) => a + b, 0) / lineI.length;
    assert.ok(mean > 10 && mean < 80, `mean MV line current ${mean}`);
    assert.ok(Math.max(...lineI) < 120);
  }
  // The transformer from the MV side: a few A of its 22.73 A, the LV power over the ratio.
  const noon = batchAt(cell, MONDAY + 10 * HOUR);
  const transformer = rowsOf(noon, 1)[0]!;
  assert.ok(transformer.i > 0.5 && transformer.i < 22.73, `${transformer.i}`);
  assert.ok(transformer.u! > 0.95 * un);
});

Deno.test("MV feeders leave the cell's LV feeders and every other cell unchanged", () => {
  const w = MONDAY + 19 * HOUR;
  // A station measuring an MV line as well: its transformer and LV lines send what they sent.
  const plain = stationCell("ts-1");
  const withLine = {
    ...plain,
    mvNominalVoltage: MV_NOMINAL_16KV,
    feeders: [...plain.feeders, {
      slot: 6,
      kind: "MV_LINE" as const,
      nominalCurrentA: 200,
      profile: "mixed" as const,
    }],
  };
  for (let t = w; t < w + HOUR; t += 10 * WINDOW_MS) {
    const a = batchAt(plain, t);
    const b = batchAt(withLine, t);
    assert.deepEqual(b.measurements.filter((m) => m.feeder !== 6), a.measurements);
    assert.deepEqual(b.events, a.events);
    assert.ok(rowsOf(b, 6)[0]!.u! > 9000);
  }
  // An MV line without the MV nominal is simulated as before (a line at the cell's voltage).
  assert.ok(rowsOf(batchAt(actuatorCell("a"), w), 5)[0]!.u! < 260);
});

Deno.test("cells without MV feeders send the values they sent before MV feeders existed", async () => {
  const cells = [
    ...utilityCells(),
    actuatorCell("act-x"),
    stationCell("st-x"),
    lineCell("l-x", "mixed", 0.7),
  ];
  const parts: string[] = [];
  for (let w = MONDAY; w < MONDAY + DAY; w += 15 * 60_000) {
    for (const cell of cells) {
      const batch = batchAt(cell, w);
      parts.push(JSON.stringify([batch.measurements, batch.events]));
    }
  }
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(parts.join("\n")));
  const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
  // Measured with the simulator before MV feeders were added (seed 42).
  assert.equal(hex, "400c29566a3bb62c6926f30d40ff84d7c332ac21dcfd6b3a58c2b9169f01522f");
});

Deno.test("parseSimCells() reads the MV nominal and MV estimation, refusing what cannot be", () => {
  const base = {
    cellId: "c-1",
    credential: "c-1.s",
    nodeKind: "MV_LV_STATION",
    nominalVoltage: 230,
    frequency: 50,
    feeders: [
      { slot: 1, kind: "TRANSFORMER", nominalCurrentA: 22.73, mvEstimation: true },
      { slot: 2, kind: "MV_LINE", nominalCurrentA: 200 },
    ],
  };
  const [cell] = parseSimCells([{ ...base, mvNominalVoltage: 9237.6 }]);
  assert.equal(cell!.mvNominalVoltage, 9237.6);
  assert.equal(cell!.feeders[0]!.mvEstimation, true);
  assert.throws(() => parseSimCells([base]), /c-1: mvNominalVoltage is missing/);
  assert.throws(
    () => parseSimCells([{ ...base, mvNominalVoltage: 40_000 }]),
    /mvNominalVoltage 40000 is outside 500\.\.31000/,
  );
  assert.throws(
    () =>
      parseSimCells([{
        ...base,
        mvNominalVoltage: 9237.6,
        feeders: [{ slot: 2, kind: "MV_LINE", nominalCurrentA: 200, mvEstimation: true }],
      }]),
    /mvEstimation is for transformers only/,
  );
  assert.throws(
    () => generateBatch({ ...cell!, cellId: "c-2", mvNominalVoltage: undefined }, MONDAY, 1),
    /needs mvNominalVoltage/,
  );
});
