/**
 * Benchmark of the quality bar "EN 50160 week for 2,000 nodes from 10-minute means <= 250 ms".
 * Run: `npx deno bench core/en50160/`.
 *
 * Every node has its own arrays (nothing shared, so the caches see the real ~340 KB per node):
 * voltage and frequency as Float64Array like DuckDB DOUBLE columns, the other series as
 * Float32Array like FLOAT columns. Two data sets:
 * - "typical": daily voltage swing and noise, harmonics at 20-60 % of their limits, one node in
 *   20 a weak feeder with voltage and 5th-harmonic excursions, cell outages as NaN runs, a few
 *   flagged events per week;
 * - "worst case": every series of every node has 2.5 % of its slots over the limit and 0.5 %
 *   scattered NaN, which sends about a fifth of the values down the slot-by-slot path.
 */
import { type ComplianceInput, evaluateCompliance } from "./evaluate.ts";
import { EN50160_LV, HARMONIC_ORDERS } from "./limits.ts";
import { isoWeekRange } from "./period.ts";

const NODES = 2_000;
const WEEK = isoWeekRange(2026, 3);
const SLOTS = WEEK.slotCount;
const PLT_BLOCKS = Math.ceil(SLOTS / 12);
const HARMONIC_LIMITS = HARMONIC_ORDERS.map((order) => EN50160_LV.harmonics.maxPct[order]);

// xorshift32: deterministic and fast enough to fill ~330 M values.
let seed = 0x9e3779b9;
function random(): number {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 4_294_967_296;
}

type Make = new (length: number) => Float32Array | Float64Array;

/** A series of `length` values from `value(slot)`, NaN where `gap` marks the cell offline. */
function fill(make: Make, length: number, gap: Uint8Array | null, value: (i: number) => number) {
  const out = new make(length);
  for (let i = 0; i < length; i++) out[i] = gap && gap[i] ? NaN : value(i);
  return out;
}

function typicalNode(): ComplianceInput {
  const weak = random() < 0.05;
  const gap = new Uint8Array(SLOTS);
  if (random() < 0.3) {
    const start = Math.floor(random() * SLOTS);
    gap.fill(1, start, start + 1 + Math.floor(random() * 36));
  }
  const flagged = new Uint8Array(SLOTS);
  for (let e = Math.floor(random() * 4); e > 0; e--) {
    const start = Math.floor(random() * SLOTS);
    flagged.fill(1, start, start + 1 + Math.floor(random() * 3));
  }
  const swing = weak ? 20 : 8;
  const daily = (i: number) => Math.sin((i / 144) * 2 * Math.PI);
  const phases = <T>(make: () => T) => [make(), make(), make()];
  const noisy = (
    make: Make,
    length: number,
    base: number,
    noise: number,
    gapOf: Uint8Array | null = gap,
  ) => fill(make, length, gapOf, () => base * (1 + (random() - 0.5) * 2 * noise));
  return {
    period: WEEK,
    nominalVoltage: 230,
    nominalFrequency: 50,
    u: phases(() => fill(Float64Array, SLOTS, gap, (i) => 230 + swing * daily(i) + random() * 6)),
    fMin: noisy(Float64Array, SLOTS, 49.97, 0.0005),
    fMax: noisy(Float64Array, SLOTS, 50.03, 0.0005),
    plt: phases(() => noisy(Float32Array, PLT_BLOCKS, weak ? 0.8 : 0.4, 0.3, null)),
    unbalance: noisy(Float32Array, SLOTS, 0.6, 0.4),
    thd: phases(() => noisy(Float32Array, SLOTS, weak ? 5 : 3, 0.4)),
    h: HARMONIC_LIMITS.map((limit, k) => {
      const base = limit * (k === 3 && weak ? 0.85 : 0.2 + random() * 0.4);
      return phases(() => noisy(Float32Array, SLOTS, base, 0.25));
    }),
    flagged,
  };
}

function worstCaseNode(): ComplianceInput {
  // Uniform in [center - spread, center + spread], NaN for 0.5 % of the slots.
  const series = (make: Make, length: number, center: number, spread: number) =>
    fill(make, length, null, () => random() < 0.005 ? NaN : center + (random() - 0.5) * 2 * spread);
  const phases = (make: Make, center: number, spread: number, length = SLOTS) =>
    [0, 1, 2].map(() => series(make, length, center, spread));
  const flagged = new Uint8Array(SLOTS);
  for (let i = 0; i < SLOTS; i++) flagged[i] = random() < 0.003 ? 1 : 0;
  return {
    period: WEEK,
    nominalVoltage: 230,
    nominalFrequency: 50,
    u: phases(Float64Array, 230, 26),
    fMin: series(Float64Array, SLOTS, 49.97, 0.05),
    fMax: series(Float64Array, SLOTS, 50.03, 0.05),
    plt: phases(Float32Array, 0.6, 0.5, PLT_BLOCKS),
    unbalance: series(Float32Array, SLOTS, 1, 1.1),
    thd: phases(Float32Array, 4, 4.2),
    // Up to limit x 1.026: about 2.5 % of the slots over the limit.
    h: HARMONIC_LIMITS.map((limit) => phases(Float32Array, limit / 2, limit / 1.9)),
    flagged,
  };
}

let sink = 0;

function evaluateAll(nodes: readonly ComplianceInput[]) {
  let passed = 0;
  for (const node of nodes) if (evaluateCompliance(node).passed === true) passed++;
  sink += passed;
}

const typical = Array.from({ length: NODES }, typicalNode);
const worstCase = Array.from({ length: NODES }, worstCaseNode);

Deno.bench({
  name: "evaluateCompliance() x 2,000 nodes, one ISO week, typical data",
  group: "en50160-week",
  baseline: true,
  warmup: 5,
  n: 30,
  fn: () => evaluateAll(typical),
});

Deno.bench({
  name: "evaluateCompliance() x 2,000 nodes, one ISO week, worst-case data",
  group: "en50160-week",
  warmup: 5,
  n: 30,
  fn: () => evaluateAll(worstCase),
});

addEventListener("unload", () => {
  if (sink < 0) console.log(sink); // keeps the results observable to the optimiser
});
