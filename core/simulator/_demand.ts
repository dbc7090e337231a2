/**
 * What each feeder draws or injects in one window: per-phase active and reactive power (kW,
 * kvar, consumption positive) as constant-power demand, before the voltage is known. Also
 * records EV charger switchings (for RVC events) and the current THD per feeder.
 */
import { type CellPlan, type FeederPlan, KIND, type WindowContext } from "./_context.ts";
import { type Mulberry32, valueNoise } from "./_random.ts";
import { boilerRun, EV_BLOCK_KW, evSession } from "./profiles.ts";
import { WINDOW_MS } from "./protocol.ts";

const MINUTE = 60_000;
const MAX_SWITCHES = 32;
/** Current THD of a line by `PROFILE_INDEX` before electronics, PV and EV add to it. */
const LINE_THD_I = new Float64Array([9, 12, 7, 10]);

/** Reusable per-window buffers of the demand step; index `feeder * 3 + phase`. */
export class Demand {
  readonly p = new Float64Array(18);
  readonly q = new Float64Array(18);
  readonly thdI = new Float64Array(18);
  /** EV switching instants (epoch ms) in this window and +1 on / -1 off. */
  readonly switchAt = new Float64Array(MAX_SWITCHES);
  readonly switchSign = new Int8Array(MAX_SWITCHES);
  switches = 0;
  /** EV chargers active on average over the window, all feeders. */
  evActive = 0;
  /** Boilers' on-share of the window (0..1), the ripple-control relay state. */
  boiler = 0;
}

const session = new Float64Array(2);

/** Share of the window a local-ms interval covers, 0..1. */
function overlap(ctx: WindowContext, from: number, to: number): number {
  const start = ctx.localStartMs;
  const covered = Math.min(to, start + WINDOW_MS) - Math.max(from, start);
  return covered > 0 ? covered / WINDOW_MS : 0;
}

function recordSwitch(ctx: WindowContext, d: Demand, localMs: number, sign: number): void {
  if (localMs < ctx.localStartMs || localMs >= ctx.localStartMs + WINDOW_MS) return;
  if (d.switches >= MAX_SWITCHES) return;
  d.switchAt[d.switches] = localMs - ctx.offsetMs;
  d.switchSign[d.switches] = sign;
  d.switches++;
}

/** Average number of active EV chargers behind a feeder over the window. */
function evChargersActive(ctx: WindowContext, f: FeederPlan, d: Demand): number {
  let active = 0;
  for (let c = 0; c < f.chargers; c++) {
    for (let day = ctx.dayIndex - 1; day <= ctx.dayIndex; day++) {
      if (!evSession(f.key, day, c, session)) continue;
      active += overlap(ctx, session[0]!, session[1]!);
      recordSwitch(ctx, d, session[0]!, 1);
      recordSwitch(ctx, d, session[1]!, -1);
    }
  }
  return active;
}

function boilerShare(ctx: WindowContext, f: FeederPlan): number {
  let on = 0;
  for (let day = ctx.dayIndex - 1; day <= ctx.dayIndex; day++) {
    boilerRun(f.key, day, session);
    on += overlap(ctx, session[0]!, session[1]!);
  }
  return Math.min(1, on);
}

function lineDemand(
  ctx: WindowContext,
  plan: CellPlan,
  f: FeederPlan,
  k: number,
  d: Demand,
  rng: Mulberry32,
): void {
  const t = ctx.midMs;
  const sn = (plan.un * f.nominalA) / 1000;
  const util = ctx.shapes[f.profile]! * (1 + 0.08 * valueNoise(f.key, t, 30 * MINUTE) +
    0.04 * valueNoise(f.key + 1, t, 4 * MINUTE) + 0.03 * rng.signed());
  const pvKw = (plan.un * f.pvA * ctx.pv) / 1000 *
    (1 + 0.04 * valueNoise(f.key + 5, t, 3 * MINUTE));
  const chargers = f.chargers > 0 ? evChargersActive(ctx, f, d) : 0;
  d.evActive += chargers;
  const evKw = (chargers * EV_BLOCK_KW) / 3;
  const lightLoad = 1 + 0.3 * Math.max(0, 0.4 - util);
  let loadKw = 0;
  for (let ph = 0; ph < 3; ph++) {
    const w = f.unbalance[ph]! * (1 + 0.06 * valueNoise(f.key + 2 + ph, t, 12 * MINUTE));
    const load = sn * util * w * f.pfLoad;
    loadKw += load;
    d.p[k + ph] = load - pvKw * f.pvUnbalance[ph]! + evKw;
    d.q[k + ph] = load * f.tanPhi * lightLoad + 0.1 * evKw;
  }
  const base = LINE_THD_I[f.profile]!;
  const electronics = f.profile === 2 ? 1 : 5 * ctx.electronics;
  const total = loadKw / 3 + pvKw + evKw + 1e-6;
  const thd = base + electronics + (8 * pvKw) / total + (10 * evKw) / total;
  for (let ph = 0; ph < 3; ph++) d.thdI[k + ph] = thd + rng.signed();
}

function pvDemand(
  ctx: WindowContext,
  plan: CellPlan,
  f: FeederPlan,
  k: number,
  d: Demand,
  rng: Mulberry32,
): void {
  const g = Math.min(1, ctx.pv * (1 + 0.03 * valueNoise(f.key + 5, ctx.midMs, 3 * MINUTE)));
  for (let ph = 0; ph < 3; ph++) {
    if (g < 0.003) {
      // Standby at night: a few watts drawn, EMC filter capacitors on the line.
      d.p[k + ph] = 0.004;
      d.q[k + ph] = -0.012;
      d.thdI[k + ph] = 45 + 5 * rng.signed();
      continue;
    }
    const kw = ((plan.un * f.pvA) / 1000) * g * f.pvUnbalance[ph]!;
    // cos(phi)(P) characteristic: unity up to half power, 0.95 absorbing at full power.
    const pf = g > 0.5 ? 1 - 0.1 * (g - 0.5) : 1;
    d.p[k + ph] = -kw;
    d.q[k + ph] = kw * Math.tan(Math.acos(pf));
    d.thdI[k + ph] = 10 + 22 * (1 - g) + rng.signed();
  }
}

function actuatorDemand(
  ctx: WindowContext,
  plan: CellPlan,
  f: FeederPlan,
  k: number,
  d: Demand,
  rng: Mulberry32,
): void {
  const sn = (plan.un * f.nominalA) / 1000;
  let p = 0;
  let q = 0;
  let thd = 30;
  if (f.kind === KIND.EVSE) {
    const active = evChargersActive(ctx, f, d);
    d.evActive += active;
    p = (active * EV_BLOCK_KW) / 3 + 0.008;
    q = 0.1 * p;
    thd = active > 0.5 ? 20 + 6 * rng.next() : 45;
  } else if (f.kind === KIND.BOILER) {
    const on = boilerShare(ctx, f);
    d.boiler = Math.max(d.boiler, on);
    p = sn * 0.95 * on + 0.003;
    thd = on > 0.5 ? 1.5 : 30;
  } else {
    // Battery: charges from noon PV, discharges into the evening peak.
    const charge = ctx.hour >= 9.5 && ctx.hour < 16 && ctx.pv > 0.25
      ? 0.7 * Math.min(1, (ctx.pv - 0.25) / 0.45)
      : 0;
    const discharge = ctx.hour >= 17 && ctx.hour < 22.5 ? 0.55 : 0;
    p = sn * (charge - discharge) + 0.01;
    q = 0.03 * Math.abs(p);
    thd = Math.abs(p) > 0.05 * sn ? 9 : 35;
  }
  for (let ph = 0; ph < 3; ph++) {
    d.p[k + ph] = p;
    d.q[k + ph] = q;
    d.thdI[k + ph] = thd + rng.signed();
  }
}

function transformerDemand(
  ctx: WindowContext,
  plan: CellPlan,
  f: FeederPlan,
  k: number,
  d: Demand,
  rng: Mulberry32,
): void {
  const sn = (plan.un * f.nominalA) / 1000;
  const others = plan.feeders.length > plan.transformers;
  // Unmeasured outgoing feeders on top of the measured ones.
  const util = ctx.shapes[f.profile]! * (others ? 0.3 : 0.85) *
    (1 + 0.06 * valueNoise(f.key, ctx.midMs, 25 * MINUTE) + 0.02 * rng.signed());
  for (let ph = 0; ph < 3; ph++) {
    let p = sn * util * f.unbalance[ph]! * f.pfLoad;
    let q = p * f.tanPhi + 0.006 * sn;
    for (let j = 0; j < plan.feeders.length; j++) {
      const other = plan.feeders[j]!;
      // An MV line is not behind the transformer.
      if (other.kind === KIND.TRANSFORMER || (other.mv && other.kind === KIND.MV_LINE)) continue;
      p += d.p[j * 3 + ph]! / plan.transformers;
      q += d.q[j * 3 + ph]! / plan.transformers;
    }
    d.p[k + ph] = p;
    d.q[k + ph] = q;
    d.thdI[k + ph] = 5 + 3 * ctx.electronics + 0.5 * rng.signed();
  }
}

/**
 * An MV line measured at a station: the load of the stations further along the MV feeder less
 * their PV, a fraction of the line's rating (MV cables keep a reserve for switching), balanced
 * within about 1 %. Draws from its own `rng` so that the cell's other feeders stay unchanged.
 */
export function mvLineDemand(
  ctx: WindowContext,
  plan: CellPlan,
  f: FeederPlan,
  k: number,
  d: Demand,
  rng: Mulberry32,
): void {
  const t = ctx.midMs;
  const sn = (plan.unMv * f.nominalA) / 1000;
  const util = 0.3 * ctx.shapes[f.profile]! * (1 + 0.05 * valueNoise(f.key, t, 30 * MINUTE) +
        0.02 * valueNoise(f.key + 1, t, 4 * MINUTE) + 0.01 * rng.signed()) - 0.06 * ctx.pv;
  for (let ph = 0; ph < 3; ph++) {
    const p = sn * util * (1 + 0.1 * (f.unbalance[ph]! - 1)) * f.pfLoad;
    d.p[k + ph] = p;
    // Inductive load less the cable's charging power.
    d.q[k + ph] = p * f.tanPhi - 0.004 * sn;
    d.thdI[k + ph] = 3 + 2 * ctx.electronics + 0.3 * rng.signed();
  }
}

/**
 * Fills `d` with every feeder's demand in this window; transformers last (they sum the rest).
 * MV lines are left to `mvLineDemand`.
 */
export function computeDemand(
  ctx: WindowContext,
  plan: CellPlan,
  d: Demand,
  rng: Mulberry32,
): void {
  d.switches = 0;
  d.evActive = 0;
  d.boiler = 0;
  const feeders = plan.feeders;
  for (let j = 0; j < feeders.length; j++) {
    const f = feeders[j]!;
    const k = j * 3;
    if (f.mv && f.kind === KIND.MV_LINE) continue;
    if (f.kind === KIND.LV_LINE || f.kind === KIND.MV_LINE) lineDemand(ctx, plan, f, k, d, rng);
    else if (f.kind === KIND.PV_INVERTER) pvDemand(ctx, plan, f, k, d, rng);
    else if (f.kind !== KIND.TRANSFORMER) actuatorDemand(ctx, plan, f, k, d, rng);
  }
  for (let j = 0; j < feeders.length; j++) {
    const f = feeders[j]!;
    if (f.kind === KIND.TRANSFORMER) transformerDemand(ctx, plan, f, j * 3, d, rng);
  }
}
