/**
 * The electrical model of one cell in one window: demand -> bus voltage (MV variation, tap,
 * drop along the LV grid, PV rise, EV steps, events) -> per-feeder currents, powers and quality
 * values, written straight into measurement columns. A station's MV feeders (MV lines, an
 * MV-estimating transformer) see the MV bus instead, drawn from a stream of their own. Module-level scratch buffers keep the
 * backfill loop free of allocations; the model is synchronous, so sharing them is safe.
 */
import { type CellPlan, KIND, type WindowContext } from "./_context.ts";
import { computeDemand, Demand, mvLineDemand } from "./_demand.ts";
import { mix, Mulberry32, valueNoise } from "./_random.ts";
import type { MeasurementColumns } from "./columns.ts";
import { EV_BLOCK_KW, fillVoltageHarmonics, trait } from "./profiles.ts";
import { planEvents, type PlannedEvent } from "./voltage_events.ts";

const MINUTE = 60_000;
const TWO_THIRDS_PI = (2 * Math.PI) / 3;
/** Voltage angle of L1, L2, L3. */
const ALPHA = new Float64Array([0, -TWO_THIRDS_PI, TWO_THIRDS_PI]);
/** With the swapped mapping, probe k measures the current of conductor SWAPPED_SOURCE[k]. */
const SWAPPED_SOURCE = new Int32Array([2, 0, 1]);
/** cos and sin of ALPHA[k] - ALPHA[SWAPPED_SOURCE[k]]: the angle a swapped probe adds. */
const SWAP_COS = new Float64Array(3);
const SWAP_SIN = new Float64Array(3);
for (let k = 0; k < 3; k++) {
  const turn = ALPHA[k]! - ALPHA[SWAPPED_SOURCE[k]!]!;
  SWAP_COS[k] = Math.cos(turn);
  SWAP_SIN[k] = Math.sin(turn);
}
const COS_ALPHA = ALPHA.map(Math.cos);
const SIN_ALPHA = ALPHA.map(Math.sin);

const rng = new Mulberry32();
/** The MV feeders' own stream: the LV values of a cell stay the same with or without them. */
const mvRng = new Mulberry32();
const demand = new Demand();
const uSteady = new Float64Array(3);
const uRms = new Float64Array(3);
const prePct = new Float64Array(3);
const meanSquare = new Float64Array(3);
const thdU = new Float64Array(3);
const harmonics = new Float64Array(72);
const pst = new Float64Array(3);
const plt = new Float64Array(3);
/** The MV bus of a station: the same quantities at medium voltage. */
const uMvSteady = new Float64Array(3);
const uMvRms = new Float64Array(3);
const thdUMv = new Float64Array(3);
const harmonicsMv = new Float64Array(72);
const pstMv = new Float64Array(3);
const pltMv = new Float64Array(3);
const current = new Float64Array(18);
/** cos and sin of each conductor's current angle behind its own voltage (P/S, Q/S). */
const cosPhi = new Float64Array(18);
const sinPhi = new Float64Array(18);

/** What `generateBatch` needs beyond the measurement rows. */
export interface WindowExtras {
  events: PlannedEvent[];
  /** Boilers' ripple-control relay on-share of the window. */
  boiler: number;
  /** Mean load factor over the phases (negative when PV exports). */
  loadFactor: number;
}

function round(value: number, scale: number): number {
  // floor(x + 0.5) is Math.round for these magnitudes and much faster in V8; `+ 0` turns -0
  // into 0, so columns and JSON agree.
  return Math.floor(value * scale + 0.5) / scale + 0;
}

function clamp(value: number, low: number, high: number): number {
  return value < low ? low : value > high ? high : value;
}

/** Steady bus voltages from the load factor; returns the mean load factor. */
function busVoltages(ctx: WindowContext, plan: CellPlan): number {
  const t = ctx.midMs;
  const evKw = (demand.evActive * EV_BLOCK_KW) / 3;
  const base = 1 + plan.tap + ctx.mv + 0.002 * valueNoise(plan.key + 7, t, 5 * MINUTE) -
    plan.evStep * demand.evActive;
  const dropPerLoad = plan.dropPerLoad;
  let loadSum = 0;
  for (let ph = 0; ph < 3; ph++) {
    let kw = -evKw;
    for (let j = 0; j < plan.feeders.length; j++) {
      const isTransformer = plan.feeders[j]!.kind === KIND.TRANSFORMER;
      if (plan.feeders[j]!.mv && !isTransformer) continue;
      if (isTransformer === (plan.transformers > 0)) kw += demand.p[j * 3 + ph]!;
    }
    const load = clamp(kw / plan.capacityKw, -1.5, 1.5);
    loadSum += load;
    const relative = base + 0.004 * valueNoise(plan.key + 11 + ph, t, 40 * MINUTE) -
      dropPerLoad * load + 0.0008 * rng.signed();
    uSteady[ph] = plan.un * relative;
    prePct[ph] = relative * 100;
  }
  return loadSum / 3;
}

/** THD U, harmonics, Pst and Plt per phase. */
function voltageQuality(ctx: WindowContext, plan: CellPlan, load: number): void {
  const t = ctx.midMs;
  const d = plan.distance;
  const ev = Math.min(demand.evActive, 4);
  const working = ctx.dayOfWeek >= 1 && ctx.dayOfWeek <= 5 && ctx.hour >= 7 && ctx.hour < 17;
  const disturbance = working ? plan.disturbingPst : 0;
  for (let ph = 0; ph < 3; ph++) {
    const thd = 1 + 1.5 * ctx.electronics + 0.6 * d + 0.25 * ev + 0.6 * plan.pvShare * ctx.pv +
      0.15 * rng.signed() + 0.1 * trait(plan.key, 40 + ph);
    thdU[ph] = round(clamp(thd, 1, 4), 100);
    fillVoltageHarmonics(thdU[ph]!, rng.signed(), rng.signed(), rng.signed(), harmonics, ph * 24);
    for (let n = ph * 24; n < ph * 24 + 24; n++) harmonics[n] = round(harmonics[n]!, 100);
    const flicker = 0.12 + 0.1 * Math.abs(load) + 0.25 * d * ctx.electronics +
      0.15 * d * Math.min(ev, 3) + 0.04 * valueNoise(plan.key + 20 + ph, t, 10 * MINUTE) +
      disturbance * (0.85 + 0.15 * valueNoise(plan.key + 26 + ph, t, 30 * MINUTE));
    pst[ph] = round(Math.max(0.05, flicker + 0.03 * rng.signed()), 100);
    plt[ph] = round(
      Math.max(0.05, 1.05 * flicker + 0.02 * valueNoise(plan.key + 23 + ph, t, 120 * MINUTE)),
      100,
    );
  }
}

/**
 * The station's MV bus: the substation's set point less the drop along the MV feeder
 * (`mvOffset`), the grid-wide MV variation (about +-1.5 % a day), slow per-phase wander, and
 * the window's events; harmonics and flicker are lower than on the LV side.
 */
function mvVoltages(ctx: WindowContext, plan: CellPlan, load: number): void {
  const t = ctx.midMs;
  for (let ph = 0; ph < 3; ph++) {
    const relative = 1 + plan.mvOffset + ctx.mv - 0.002 * load +
      0.0015 * valueNoise(plan.key + 50 + ph, t, 30 * MINUTE) + 0.0003 * mvRng.signed();
    uMvSteady[ph] = plan.unMv * relative;
    uMvRms[ph] = round(uMvSteady[ph]! * Math.sqrt(meanSquare[ph]!), 100);
    const thd = 0.6 + 0.8 * ctx.electronics + 0.2 * plan.pvShare * ctx.pv + 0.08 * mvRng.signed();
    thdUMv[ph] = round(clamp(thd, 0.3, 2.5), 100);
    fillVoltageHarmonics(
      thdUMv[ph]!,
      mvRng.signed(),
      mvRng.signed(),
      mvRng.signed(),
      harmonicsMv,
      ph * 24,
    );
    for (let n = ph * 24; n < ph * 24 + 24; n++) harmonicsMv[n] = round(harmonicsMv[n]!, 100);
    const flicker = 0.08 + 0.03 * Math.abs(load) +
      0.02 * valueNoise(plan.key + 60 + ph, t, 10 * MINUTE);
    pstMv[ph] = round(Math.max(0.05, flicker + 0.01 * mvRng.signed()), 100);
    pltMv[ph] = round(
      Math.max(0.05, 1.05 * flicker + 0.01 * valueNoise(plan.key + 63 + ph, t, 120 * MINUTE)),
      100,
    );
  }
}

/** Negative-sequence unbalance of the RMS voltages `u` plus the MV grid's own, in %. */
function voltageUnbalance(plan: CellPlan, t: number, u: Float64Array): number {
  const a = u[0]!;
  const b = u[1]!;
  const c = u[2]!;
  const re = a - 0.5 * (b + c);
  const im = (Math.sqrt(3) / 2) * (b - c);
  const own = (Math.sqrt(re * re + im * im) / (a + b + c)) * 100;
  const grid = 0.25 + 0.1 * valueNoise(plan.key + 30, t, 60 * MINUTE);
  return round(Math.sqrt(own * own + grid * grid), 100);
}

function writeNeutral(cols: MeasurementColumns, r: number, k: number, thirdShare: number): void {
  let re = 0;
  let im = 0;
  let triplen = 0;
  for (let m = 0; m < 3; m++) {
    const i = current[k + m]!;
    const c = cosPhi[k + m]!;
    const s = sinPhi[k + m]!;
    // The phasor I at angle ALPHA[m] - phi.
    re += i * (COS_ALPHA[m]! * c + SIN_ALPHA[m]! * s);
    im += i * (SIN_ALPHA[m]! * c - COS_ALPHA[m]! * s);
    // Third harmonics of the phases add up in the neutral.
    triplen += (i * thirdShare * demand.thdI[k + m]!) / 100;
  }
  cols.phase[r] = 3;
  cols.i[r] = round(Math.sqrt(re * re + im * im + triplen * triplen), 100);
  cols.u[r] = NaN;
  cols.p[r] = NaN;
  cols.q[r] = NaN;
  cols.pf[r] = NaN;
  cols.thdU[r] = NaN;
  cols.thdI[r] = NaN;
  cols.f[r] = NaN;
  cols.unbalance[r] = NaN;
  cols.pst[r] = NaN;
  cols.plt[r] = NaN;
  for (let n = r * 24; n < r * 24 + 24; n++) cols.hU[n] = NaN;
}

/**
 * Simulates `plan`'s cell in the window of `ctx` and writes its rows (feeders in order, probes
 * L1, L2, L3, N) at `row`. Returns the number of rows written. `extras`, when given, receives
 * the window's events and the states `generateBatch` reports besides measurements.
 */
export function simulateCell(
  ctx: WindowContext,
  plan: CellPlan,
  cellIndex: number,
  cols: MeasurementColumns,
  row: number,
  extras?: WindowExtras,
): number {
  rng.reseed(mix(mix(plan.key, ctx.windowIndex), ctx.seed));
  computeDemand(ctx, plan, demand, rng);
  const load = busVoltages(ctx, plan);
  const interrupted = planEvents(ctx, plan, prePct, demand, meanSquare, extras?.events);
  const currentFactor = Math.sqrt(1 - interrupted);
  for (let ph = 0; ph < 3; ph++) uRms[ph] = round(uSteady[ph]! * Math.sqrt(meanSquare[ph]!), 100);
  voltageQuality(ctx, plan, load);
  const unbalance = voltageUnbalance(plan, ctx.midMs, uRms);
  const frequency = round(plan.fn + ctx.frequencyOffset + 0.001 * rng.signed(), 1000);
  let unbalanceMv = 0;
  if (plan.hasMv) {
    mvRng.reseed(mix(mix(plan.key ^ 0x3f11, ctx.windowIndex), ctx.seed));
    for (let j = 0; j < plan.feeders.length; j++) {
      const f = plan.feeders[j]!;
      if (f.mv && f.kind === KIND.MV_LINE) mvLineDemand(ctx, plan, f, j * 3, demand, mvRng);
    }
    mvVoltages(ctx, plan, load);
    unbalanceMv = voltageUnbalance(plan, ctx.midMs, uMvRms);
  }
  if (extras !== undefined) {
    extras.boiler = demand.boiler;
    extras.loadFactor = load;
  }
  let r = row;
  for (let j = 0; j < plan.feeders.length; j++) {
    const feeder = plan.feeders[j]!;
    const k = j * 3;
    const mv = feeder.mv;
    const steady = mv ? uMvSteady : uSteady;
    const rms = mv ? uMvRms : uRms;
    const thdUOf = mv ? thdUMv : thdU;
    const harmonicsOf = mv ? harmonicsMv : harmonics;
    const pstOf = mv ? pstMv : pst;
    const pltOf = mv ? pltMv : plt;
    for (let m = 0; m < 3; m++) {
      const p = demand.p[k + m]!;
      const q = demand.q[k + m]!;
      const s = Math.sqrt(p * p + q * q);
      current[k + m] = ((s * 1000) / steady[m]!) * currentFactor;
      cosPhi[k + m] = s > 0 ? p / s : 1;
      sinPhi[k + m] = s > 0 ? q / s : 0;
    }
    for (let probe = 0; probe < 4; probe++, r++) {
      cols.ts[r] = ctx.startMs;
      cols.cell[r] = cellIndex;
      cols.feeder[r] = feeder.slot;
      if (probe === 3) {
        writeNeutral(cols, r, k, feeder.thirdShare);
        continue;
      }
      const m = plan.swapped ? SWAPPED_SOURCE[probe]! : probe;
      const u = rms[probe]!;
      const i = round(current[k + m]!, 100);
      // What the device computes from voltage channel `probe` and the current it is given:
      // a swapped probe turns the angle by ALPHA[probe] - ALPHA[m].
      let c = cosPhi[k + m]!;
      let sn = sinPhi[k + m]!;
      if (m !== probe) {
        const turned = c * SWAP_COS[probe]! - sn * SWAP_SIN[probe]!;
        sn = sn * SWAP_COS[probe]! + c * SWAP_SIN[probe]!;
        c = turned;
      }
      const s = (u * i) / 1000;
      cols.phase[r] = probe;
      cols.u[r] = u;
      cols.i[r] = i;
      cols.p[r] = round(s * c, 1000);
      cols.q[r] = round(s * sn, 1000);
      cols.pf[r] = round(c, 1000);
      cols.thdU[r] = thdUOf[probe]!;
      cols.thdI[r] = round(clamp(demand.thdI[k + m]!, 0.3, 90), 100);
      cols.f[r] = frequency;
      cols.unbalance[r] = mv ? unbalanceMv : unbalance;
      cols.pst[r] = pstOf[probe]!;
      cols.plt[r] = pltOf[probe]!;
      const h = r * 24;
      const source = probe * 24;
      for (let n = 0; n < 24; n++) cols.hU[h + n] = harmonicsOf[source + n]!;
    }
  }
  return r - row;
}
