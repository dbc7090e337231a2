/**
 * Precomputed inputs of the cell model: what one window means for every cell (time of day,
 * sun, frequency, MV voltage) and what a cell's configuration means for every window (keys,
 * traits, capacities). Both are computed once and reused across the backfill loop.
 */
import { hashString, mix, unit } from "./_random.ts";
import {
  civilTime,
  electronicsShare,
  frequencyOffsetHz,
  loadShape,
  mvVariation,
  PROFILE_INDEX,
  pvFraction,
  seasonalFactor,
  trait,
  utcOffsetMs,
} from "./profiles.ts";
import { type GpsFix, WINDOW_MS } from "./protocol.ts";
import type { FeederKind, LoadProfile, SimCell } from "./topology.ts";

const PROFILES: readonly LoadProfile[] = ["residential", "commercial", "industrial", "mixed"];

/** Everything about one window that does not depend on the cell. */
export interface WindowContext {
  startMs: number;
  windowIndex: number;
  /** The seed reduced to 32 bits. */
  seed: number;
  /** Mid-window instant the smooth curves are sampled at. */
  midMs: number;
  offsetMs: number;
  localStartMs: number;
  dayIndex: number;
  hour: number;
  dayOfWeek: number;
  dayOfYear: number;
  /** Load fraction (shape x season) per `PROFILE_INDEX`. */
  shapes: Float64Array;
  /** PV output, fraction of peak. */
  pv: number;
  frequencyOffset: number;
  mv: number;
  electronics: number;
  ambientC: number;
}

/** Builds the cell-independent context of the window starting at `startMs`. */
export function windowContext(startMs: number, seed: number): WindowContext {
  const midMs = startMs + WINDOW_MS / 2;
  const civil = civilTime(midMs);
  const offsetMs = utcOffsetMs(startMs);
  const shapes = new Float64Array(4);
  for (const profile of PROFILES) {
    shapes[PROFILE_INDEX[profile]] = loadShape(profile, civil.hour, civil.dayOfWeek) *
      seasonalFactor(profile, civil.dayOfYear);
  }
  const seed32 = seed >>> 0;
  return {
    startMs,
    windowIndex: startMs / WINDOW_MS,
    seed: seed32,
    midMs,
    offsetMs,
    localStartMs: startMs + offsetMs,
    dayIndex: civil.dayIndex,
    hour: civil.hour,
    dayOfWeek: civil.dayOfWeek,
    dayOfYear: civil.dayOfYear,
    shapes,
    pv: pvFraction(midMs, seed32),
    frequencyOffset: frequencyOffsetHz(midMs, seed32),
    mv: mvVariation(midMs, seed32),
    electronics: electronicsShare(civil.hour),
    ambientC: 10 - 9 * Math.cos((2 * Math.PI * (civil.dayOfYear - 20)) / 365.25) +
      5 * Math.sin((2 * Math.PI * (civil.hour - 9)) / 24),
  };
}

/** Feeder kinds by code, for switch statements in the hot loop. */
export const KIND = {
  TRANSFORMER: 0,
  LV_LINE: 1,
  MV_LINE: 2,
  PV_INVERTER: 3,
  BATTERY: 4,
  EVSE: 5,
  BOILER: 6,
} as const satisfies Record<FeederKind, number>;

/** A feeder's configuration turned into the numbers the model needs. */
export interface FeederPlan {
  slot: number;
  kind: number;
  profile: number;
  nominalA: number;
  /** PV peak current per phase. */
  pvA: number;
  /** EV chargers (11 kW blocks) behind the feeder. */
  chargers: number;
  key: number;
  /** Per-phase load weights (mean 1): single-phase loads are unevenly spread. */
  unbalance: Float64Array;
  pvUnbalance: Float64Array;
  /** Power factor of the load (inductive). */
  pfLoad: number;
  /** tan(phi) of the load. */
  tanPhi: number;
  /** Share of the current THD that is 3rd harmonic (adds up in the neutral). */
  thirdShare: number;
  /**
   * Reports MV values: an MV line of a cell that knows the MV nominal voltage, or a transformer
   * with MV estimation (reported from the MV side).
   */
  mv: boolean;
}

/** A cell's configuration turned into the numbers the model needs. */
export interface CellPlan {
  cell: SimCell;
  key: number;
  un: number;
  /** MV phase-neutral nominal voltage in V, 0 when the cell does not know it. */
  unMv: number;
  /** Some feeder reports MV values. */
  hasMv: boolean;
  /** The MV voltage at this station relative to nominal: the substation's set point less the drop. */
  mvOffset: number;
  fn: number;
  distance: number;
  feeders: FeederPlan[];
  transformers: number;
  /** Per-phase capacity in kW the load factor (and so the voltage drop) is relative to. */
  capacityKw: number;
  /** Share of the capacity that is PV (raises THD U at noon). */
  pvShare: number;
  /** No-load voltage set by the transformer tap, relative. */
  tap: number;
  /** Relative voltage drop per unit of load (the distance's and a weak supply's). */
  dropPerLoad: number;
  /** Flicker severity a disturbing load adds while it works. */
  disturbingPst: number;
  /** Relative voltage step per switching 11 kW EV charger: larger at the end of the grid. */
  evStep: number;
  swapped: boolean;
  gps: GpsFix;
  gsmBase: number;
  hasBoiler: boolean;
}

const GPS: readonly GpsFix[] = [
  "GPS_FIX",
  "GPS_FIX",
  "GPS_FIX",
  "DGPS_FIX",
  "PPS_FIX",
  "NO_SIGNAL",
];

const plans = new WeakMap<SimCell, CellPlan>();

function feederPlan(
  cellKey: number,
  feeder: SimCell["feeders"][number],
  unMv: number,
): FeederPlan {
  const key = mix(cellKey, feeder.slot);
  const kind = KIND[feeder.kind];
  const mv = unMv > 0 &&
    (kind === KIND.MV_LINE || (kind === KIND.TRANSFORMER && feeder.mvEstimation === true));
  const spread = feeder.profile === "industrial" ? 0.04 : 0.14;
  const a = spread * trait(key, 1);
  const b = spread * trait(key, 2);
  const pfLoad = feeder.profile === "industrial"
    ? 0.9 + 0.04 * unit(mix(key, 3))
    : feeder.profile === "commercial"
    ? 0.92 + 0.04 * unit(mix(key, 3))
    : 0.95 + 0.03 * unit(mix(key, 3));
  const evA = feeder.evPeakA ?? (kind === KIND.EVSE ? feeder.nominalCurrentA : 0);
  const pvA = feeder.pvPeakA ?? (kind === KIND.PV_INVERTER ? feeder.nominalCurrentA : 0);
  const pvSpread = 0.08 * trait(key, 4);
  // MV conductors carry no triplen harmonics: no distributed neutral, the delta winding traps them.
  const thirdShare = mv
    ? 0
    : kind === KIND.TRANSFORMER
    ? 0.4
    : kind === KIND.LV_LINE || kind === KIND.MV_LINE
    ? feeder.profile === "industrial" ? 0.35 : 0.6
    : 0.1;
  return {
    slot: feeder.slot,
    kind,
    profile: PROFILE_INDEX[feeder.profile],
    nominalA: feeder.nominalCurrentA,
    pvA,
    chargers: evA > 0 ? Math.max(1, Math.floor(evA / 16)) : 0,
    key,
    unbalance: new Float64Array([1 + a, 1 + b, 1 - a - b]),
    pvUnbalance: new Float64Array([1 + pvSpread, 1 - pvSpread, 1]),
    pfLoad,
    tanPhi: Math.tan(Math.acos(pfLoad)),
    thirdShare,
    mv,
  };
}

function buildPlan(cell: SimCell): CellPlan {
  const count = cell.feeders.length;
  if (count < 1 || count > 6) {
    throw new RangeError(`Cannot simulate cell ${cell.cellId}: ${count} feeders, expected 1..6`);
  }
  const key = hashString(cell.cellId);
  const unMv = cell.mvNominalVoltage ?? 0;
  if (unMv <= 0 && cell.feeders.some((f) => f.mvEstimation === true)) {
    throw new RangeError(
      `Cannot simulate cell ${cell.cellId}: an MV-estimating transformer needs mvNominalVoltage`,
    );
  }
  const feeders = cell.feeders.map((f) => feederPlan(key, f, unMv));
  const un = cell.nominalVoltage;
  let transformers = 0;
  let transformerKw = 0;
  let otherKw = 0;
  let pvKw = 0;
  for (const f of feeders) {
    // An MV line is upstream of the LV grid: it adds nothing to the LV capacity.
    if (f.mv && f.kind === KIND.MV_LINE) continue;
    const kw = ((f.mv ? unMv : un) * Math.max(f.nominalA, f.pvA)) / 1000;
    pvKw += (un * f.pvA) / 1000;
    if (f.kind === KIND.TRANSFORMER) {
      transformers++;
      transformerKw += kw;
    } else if (f.kind !== KIND.EVSE) otherKw += kw;
  }
  const capacityKw = transformers > 0 ? transformerKw : Math.max(otherKw, 0.1);
  const distance = cell.electricalDistance;
  return {
    cell,
    key,
    un,
    unMv,
    hasMv: feeders.some((f) => f.mv),
    mvOffset: 0.004 + 0.01 * unit(mix(key, 14)),
    fn: cell.frequency,
    distance,
    feeders,
    transformers,
    capacityKw,
    pvShare: Math.min(1, pvKw / capacityKw),
    tap: 0.02 + 0.006 * trait(key, 11),
    dropPerLoad: 0.012 + 0.08 * distance + (cell.weakSupplyDrop ?? 0),
    disturbingPst: cell.disturbingLoadPst ?? 0,
    evStep: (0.3 + 1.2 * distance) / 100,
    swapped: cell.swappedMapping === true,
    gps: GPS[Math.floor(unit(mix(key, 12)) * GPS.length)] ?? "GPS_FIX",
    gsmBase: unit(mix(key, 13)),
    hasBoiler: feeders.some((f) => f.kind === KIND.BOILER),
  };
}

/** The plan of `cell`, built once per cell object. */
export function cellPlan(cell: SimCell): CellPlan {
  let plan = plans.get(cell);
  if (plan === undefined) {
    plan = buildPlan(cell);
    plans.set(cell, plan);
  }
  return plan;
}

/** Whether `cell` is offline at the window starting at `startMs`. */
export function isOffline(cell: SimCell, startMs: number): boolean {
  const windows = cell.offline;
  if (windows === undefined) return false;
  for (const w of windows) if (startMs >= w.from && startMs < w.to) return true;
  return false;
}
