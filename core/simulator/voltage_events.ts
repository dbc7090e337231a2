/**
 * Voltage events a cell detects on the device: dips (some from MV faults, seen by every cell at
 * once), rarer swells, rare short interruptions and rapid voltage changes when EV chargers
 * switch. Each is drawn from a hash of (cell, window, seed), so it is the same on every run.
 */
import type { CellPlan, WindowContext } from "./_context.ts";
import type { Demand } from "./_demand.ts";
import { mix, Mulberry32, unit } from "./_random.ts";
import { trait } from "./profiles.ts";
import { type VoltageEventType, WINDOW_MS } from "./protocol.ts";

/** How often events happen and how large they are: the one table of event limits. */
export const EVENT_RATES = {
  /** Dips caused by MV faults: every cell sees them in the same window. */
  gridDipsPerWeek: 1.5,
  /** Dips from faults or motor starts on the cell's own LV grid. */
  localDipsPerWeek: 1.5,
  swellsPerWeek: 0.3,
  interruptionsPerWeek: 0.05,
  dipResidualPct: [60, 85],
  dipDurationMs: [100, 800],
  /** Strictly above the 110 % swell threshold: the platform refuses a "swell" peaking at 110 %. */
  swellPeakPct: [110.5, 118],
  swellDurationMs: [100, 600],
  interruptionResidualPct: [0, 2.5],
  interruptionDurationMs: [2_000, 15_000],
  /** The device's RVC threshold in % of Udin (IEC 61000-4-30 allows 1-6 %). */
  rvcThresholdPct: 1,
  rvcDurationMs: 1_000,
  rvcTraceIntervalMs: 100,
  traceLength: 20,
} as const;

const WINDOWS_PER_WEEK = (7 * 86_400_000) / WINDOW_MS;

/** An event of one window before it is formatted for the batch; phases are 0..2. */
export interface PlannedEvent {
  type: VoltageEventType;
  startMs: number;
  endMs: number;
  startPhase: number;
  endPhase: number;
  extremePct: number;
  deltaUPct: number | null;
  intervalMs: number;
  trace: number[];
}

const rng = new Mulberry32();

function round1(value: number): number {
  return Math.round(value * 10) / 10 + 0;
}

interface Trace {
  intervalMs: number;
  values: number[];
  /** Mean of (U / U before)^2 while the event lasts. */
  meanSquare: number;
}

/** An RMS trace of 20 values around a dip, swell or interruption reaching `extreme` (% of Un). */
function magnitudeTrace(pre: number, extreme: number, durationMs: number): Trace {
  const length = EVENT_RATES.traceLength;
  const intervalMs = Math.max(10, Math.ceil(durationMs / 16 / 10) * 10);
  const during = Math.max(1, Math.min(16, Math.round(durationMs / intervalMs)));
  const direction = extreme < pre ? 1 : -1;
  const ripple = Math.min(3, 0.15 * Math.abs(pre - extreme));
  const values: number[] = [];
  for (let k = 0; k < 2; k++) values.push(round1(pre + 0.1 * rng.signed()));
  let squares = 0;
  for (let k = 0; k < during; k++) {
    const edge = during >= 3 && (k === 0 || k === during - 1);
    let value = edge ? (pre + extreme) / 2 : extreme + direction * ripple * rng.next();
    if (k === Math.floor(during / 2)) value = extreme;
    value = round1(value);
    squares += (value / pre) * (value / pre);
    values.push(value);
  }
  values.push(round1(pre + direction * 0.3));
  while (values.length < length) values.push(round1(pre + 0.1 * rng.signed()));
  return { intervalMs, values, meanSquare: squares / during };
}

type MagnitudeType = "DIP" | "SWELL" | "INTERRUPTION";

const SHAPES: Record<MagnitudeType, {
  extreme: readonly [number, number];
  duration: readonly [number, number];
  phases: readonly [number, number];
}> = {
  DIP: {
    extreme: EVENT_RATES.dipResidualPct,
    duration: EVENT_RATES.dipDurationMs,
    phases: [0.6, 0.85],
  },
  SWELL: {
    extreme: EVENT_RATES.swellPeakPct,
    duration: EVENT_RATES.swellDurationMs,
    phases: [0.8, 1],
  },
  INTERRUPTION: {
    extreme: EVENT_RATES.interruptionResidualPct,
    duration: EVENT_RATES.interruptionDurationMs,
    phases: [0, 0],
  },
};

/**
 * Plans a dip, swell or interruption from `key` (grid-wide or local) and lowers `meanSquare`
 * of the phases it hits. Returns the share of the window the supply was interrupted.
 */
function magnitudeEvent(
  type: MagnitudeType,
  key: number,
  ctx: WindowContext,
  plan: CellPlan,
  prePct: Float64Array,
  meanSquare: Float64Array,
  out: PlannedEvent[] | undefined,
): number {
  rng.reseed(key);
  const shape = SHAPES[type];
  const [low, high] = shape.extreme;
  // Cells on one MV grid see a common dip a little differently.
  const extreme = Math.min(high, Math.max(low, rng.between(low, high) + 2 * trait(plan.key, 31)));
  const durationMs = Math.round(rng.between(shape.duration[0], shape.duration[1]) / 10) * 10;
  const startMs = ctx.startMs + Math.floor(rng.next() * (WINDOW_MS - durationMs - 1));
  const draw = rng.next();
  const count = draw < shape.phases[0] ? 1 : draw < shape.phases[1] ? 2 : 3;
  const first = rng.index(3);
  const step = rng.next() < 0.5 ? 1 : 2;
  let worst: Trace | undefined;
  let last = first;
  for (let n = 0; n < count; n++) {
    const ph = (first + n * step) % 3;
    const pre = prePct[ph]!;
    // Phases after the first are hit less hard.
    const target = n === 0 ? extreme : extreme + (100 - extreme) * (0.1 + 0.3 * rng.next());
    const trace = magnitudeTrace(pre, type === "INTERRUPTION" ? extreme : target, durationMs);
    meanSquare[ph] = 1 - (durationMs / WINDOW_MS) * (1 - trace.meanSquare);
    worst ??= trace;
    last = ph;
  }
  if (out !== undefined && worst !== undefined) {
    const values = worst.values;
    out.push({
      type,
      startMs,
      endMs: startMs + durationMs,
      startPhase: first,
      endPhase: last,
      extremePct: type === "SWELL" ? Math.max(...values) : Math.min(...values),
      deltaUPct: null,
      intervalMs: worst.intervalMs,
      trace: values,
    });
  }
  return type === "INTERRUPTION" ? durationMs / WINDOW_MS : 0;
}

function rapidVoltageChanges(
  ctx: WindowContext,
  plan: CellPlan,
  prePct: Float64Array,
  d: Demand,
  out: PlannedEvent[],
): void {
  const stepPct = plan.evStep * 100;
  if (stepPct < EVENT_RATES.rvcThresholdPct) return;
  const interval = EVENT_RATES.rvcTraceIntervalMs;
  for (let s = 0; s < d.switches; s++) {
    const at = d.switchAt[s]!;
    const sign = d.switchSign[s]!;
    rng.reseed(mix(mix(plan.key, at), ctx.seed));
    const ph = rng.index(3);
    const delta = stepPct * (1 + 0.05 * rng.signed());
    // The window mean includes the new level for the rest of the window; undo that.
    const before = prePct[ph]! + sign * delta * ((ctx.startMs + WINDOW_MS - at) / WINDOW_MS);
    const overshoot = delta * (sign > 0 ? 1.4 : 1.1);
    const values: number[] = [];
    for (let k = 0; k < 3; k++) values.push(round1(before + 0.05 * rng.signed()));
    for (let k = 0; k < 10; k++) {
      values.push(round1(before - sign * (delta + (overshoot - delta) * Math.exp(-k / 1.5))));
    }
    while (values.length < EVENT_RATES.traceLength) {
      values.push(round1(before - sign * delta + 0.05 * rng.signed()));
    }
    out.push({
      type: "RVC",
      startMs: Math.floor(at),
      endMs: Math.floor(at) + EVENT_RATES.rvcDurationMs,
      startPhase: ph,
      endPhase: ph,
      extremePct: sign > 0 ? Math.min(...values) : Math.max(...values),
      deltaUPct: Math.round(delta * 100) / 100,
      intervalMs: interval,
      trace: values,
    });
  }
}

/**
 * Draws this window's events for a cell. `prePct` is each phase's steady voltage in % of Un;
 * `meanSquare` receives, per phase, the factor the window's mean square voltage shrinks or
 * grows by. Returns the share of the window the supply was interrupted (currents stop).
 * Event records are pushed to `out` when given; without it nothing is allocated in the
 * common case of a quiet window.
 */
export function planEvents(
  ctx: WindowContext,
  plan: CellPlan,
  prePct: Float64Array,
  d: Demand,
  meanSquare: Float64Array,
  out?: PlannedEvent[],
): number {
  meanSquare[0] = 1;
  meanSquare[1] = 1;
  meanSquare[2] = 1;
  const local = mix(mix(plan.key ^ 0xe7e7, ctx.windowIndex), ctx.seed);
  const grid = mix(mix(ctx.seed, 0xd1d), ctx.windowIndex);
  let interrupted = 0;
  if (unit(mix(local, 3)) < EVENT_RATES.interruptionsPerWeek / WINDOWS_PER_WEEK) {
    interrupted = magnitudeEvent("INTERRUPTION", local, ctx, plan, prePct, meanSquare, out);
  } else if (unit(grid) < EVENT_RATES.gridDipsPerWeek / WINDOWS_PER_WEEK) {
    magnitudeEvent("DIP", grid, ctx, plan, prePct, meanSquare, out);
  } else if (unit(mix(local, 1)) < EVENT_RATES.localDipsPerWeek / WINDOWS_PER_WEEK) {
    magnitudeEvent("DIP", local, ctx, plan, prePct, meanSquare, out);
  } else if (unit(mix(local, 2)) < EVENT_RATES.swellsPerWeek / WINDOWS_PER_WEEK) {
    magnitudeEvent("SWELL", local, ctx, plan, prePct, meanSquare, out);
  }
  if (out !== undefined && d.switches > 0) rapidVoltageChanges(ctx, plan, prePct, d, out);
  return interrupted;
}
