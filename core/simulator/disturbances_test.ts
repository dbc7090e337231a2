/**
 * The two supply problems the demo shows failing EN 50160 (modules/demo/simulation.ts): a weak
 * supply whose 10-minute voltages fall below -10 % in more than 5 % of a week's slots, and a
 * disturbing load whose 2-hour Plt exceeds 1 in more than 5 % of the week's blocks; the same
 * cells without them stay well inside both. One week of November, three windows per slot.
 */
import assert from "node:assert/strict";
import { generateBatch } from "./generate.ts";
import { WINDOW_MS } from "./protocol.ts";
import { testCell } from "./_test_cells.ts";
import type { SimCell } from "./topology.ts";

const MONDAY = Date.UTC(2026, 10, 16);
const SLOT_MS = 600_000;
const SLOTS = 1008;

/** Per phase: the share of slots whose mean voltage is below 207 V, of 2-h blocks with Plt > 1. */
function week(cell: SimCell): { low: number; flicker: number } {
  let low = 0;
  let flicker = 0;
  for (let block = 0; block < SLOTS / 12; block++) {
    const plt = [0, 0, 0];
    for (let slot = block * 12; slot < (block + 1) * 12; slot++) {
      const u = [0, 0, 0];
      for (let k = 0; k < 3; k++) {
        const batch = generateBatch(cell, MONDAY + slot * SLOT_MS + k * 10 * WINDOW_MS, 1, 1);
        for (const m of batch?.measurements ?? []) {
          const p = ["L1", "L2", "L3"].indexOf(m.phase);
          if (m.feeder !== 1 || p < 0) continue;
          u[p]! += m.u! / 3;
          plt[p] = Math.max(plt[p]!, m.plt ?? 0);
        }
      }
      low += u.filter((v) => v < 207).length;
    }
    flicker += plt.filter((v) => v > 1).length;
  }
  return { low: low / (SLOTS * 3), flicker: flicker / (SLOTS / 12 * 3) };
}

/** A residential cabinet like the demo's (incoming and outgoing line, PV and EV behind them). */
const residential = (extra: Partial<SimCell>) => {
  const line = (slot: number, nominalCurrentA: number) =>
    ({
      slot,
      kind: "LV_LINE",
      nominalCurrentA,
      profile: "residential",
      pvPeakA: 20,
      evPeakA: 32,
    }) as const;
  return testCell("c-weak", [line(1, 250), line(2, 160)], { electricalDistance: 0.8, ...extra });
};
const industrial = (extra: Partial<SimCell>) =>
  testCell("c-saw", [{ slot: 1, kind: "LV_LINE", nominalCurrentA: 160, profile: "industrial" }], {
    electricalDistance: 0.7,
    ...extra,
  });

Deno.test("a weak supply's evening voltages fail EN 50160's 95 % band; the same cell without it passes", () => {
  const weak = week(residential({ weakSupplyDrop: 0.12 }));
  const sound = week(residential({}));
  assert.ok(weak.low > 0.05, `weak: ${weak.low}`);
  assert.ok(sound.low < 0.01, `sound: ${sound.low}`);
  assert.ok(weak.flicker < 0.05 && sound.flicker < 0.05);
});

Deno.test("a disturbing load's working hours fail EN 50160's Plt; the same cell without it passes", () => {
  const disturbed = week(industrial({ disturbingLoadPst: 1.1 }));
  const quiet = week(industrial({}));
  // Weekdays 07:00-17:00 local: about 5 of 12 blocks on 5 of 7 days.
  assert.ok(disturbed.flicker > 0.2 && disturbed.flicker < 0.4, `disturbed: ${disturbed.flicker}`);
  assert.equal(quiet.flicker, 0);
  assert.ok(disturbed.low < 0.05 && quiet.low < 0.05);
});
