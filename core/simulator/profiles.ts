/**
 * Load, weather and grid profiles of the simulated utility: pure functions of time and seed.
 * People follow civil time in Europe/Zurich (the demo is a small Swiss utility); the sun
 * follows solar time at the same place.
 */
import { mix, signedUnit, unit, valueNoise } from "./_random.ts";
import type { LoadProfile } from "./topology.ts";

/** Where the simulated grid lies: civil time zone and the point the sun is computed for. */
export const SIM_LOCATION = {
  timeZone: "Europe/Zurich",
  latitudeDeg: 46.95,
  longitudeDeg: 7.45,
} as const;

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const YEAR_DAYS = 365.25;

/** Load profiles by index, so hot loops can keep them in typed arrays. */
export const PROFILE_INDEX: Readonly<Record<LoadProfile, number>> = {
  residential: 0,
  commercial: 1,
  industrial: 2,
  mixed: 3,
};

const dstCache = new Map<number, readonly [number, number]>();

function lastSundayUtc(year: number, month: number): number {
  const lastDay = Date.UTC(year, month + 1, 0);
  return lastDay - new Date(lastDay).getUTCDay() * DAY_MS;
}

/** Offset of Europe/Zurich civil time from UTC at `epochMs` (CET +1 h, CEST +2 h, EU rule). */
export function utcOffsetMs(epochMs: number): number {
  const year = new Date(epochMs).getUTCFullYear();
  let dst = dstCache.get(year);
  if (dst === undefined) {
    dst = [lastSundayUtc(year, 2) + HOUR_MS, lastSundayUtc(year, 9) + HOUR_MS];
    dstCache.set(year, dst);
  }
  return epochMs >= dst[0] && epochMs < dst[1] ? 2 * HOUR_MS : HOUR_MS;
}

/** Civil (local) time of an instant, split the way load curves need it. */
export interface CivilTime {
  /** Epoch ms shifted by the UTC offset: local wall-clock time as if it were UTC. */
  localMs: number;
  /** Days since 1970-01-01 in local time. */
  dayIndex: number;
  /** Local hour of day, fractional, 0 <= hour < 24. */
  hour: number;
  /** 0 = Sunday .. 6 = Saturday. */
  dayOfWeek: number;
  /** 1..366. */
  dayOfYear: number;
}

/** Local civil time of `epochMs` in the simulated grid's time zone. */
export function civilTime(epochMs: number): CivilTime {
  const localMs = epochMs + utcOffsetMs(epochMs);
  const dayIndex = Math.floor(localMs / DAY_MS);
  const yearStart = Date.UTC(new Date(localMs).getUTCFullYear(), 0, 1);
  return {
    localMs,
    dayIndex,
    hour: (localMs - dayIndex * DAY_MS) / HOUR_MS,
    dayOfWeek: (((dayIndex + 4) % 7) + 7) % 7,
    dayOfYear: Math.floor((localMs - yearStart) / DAY_MS) + 1,
  };
}

function bump(hour: number, center: number, width: number): number {
  let d = hour - center;
  if (d > 12) d -= 24;
  if (d < -12) d += 24;
  return Math.exp(-0.5 * (d / width) * (d / width));
}

function plateau(hour: number, from: number, to: number, softness: number): number {
  return 1 / (1 + Math.exp((from - hour) / softness)) / (1 + Math.exp((hour - to) / softness));
}

function residential(hour: number, dayOfWeek: number): number {
  if (dayOfWeek === 0 || dayOfWeek === 6) {
    return 0.17 + 0.2 * bump(hour, 9.8, 1.7) + 0.14 * bump(hour, 12.5, 1.5) +
      0.4 * bump(hour, 19, 2);
  }
  return 0.16 + 0.2 * bump(hour, 7.2, 1) + 0.08 * bump(hour, 12.3, 1.3) +
    0.42 * bump(hour, 19.4, 1.9);
}

function commercial(hour: number, dayOfWeek: number): number {
  if (dayOfWeek === 0) return 0.14;
  if (dayOfWeek === 6) return 0.14 + 0.3 * plateau(hour, 8.5, 16.5, 0.6);
  return 0.14 + 0.58 * plateau(hour, 7.5, 18.5, 0.6);
}

function industrial(hour: number, dayOfWeek: number): number {
  if (dayOfWeek === 0) return 0.28;
  if (dayOfWeek === 6) return 0.3 + 0.2 * plateau(hour, 6, 14, 0.3);
  // Two shifts, 06-14 and 14-22, with a short lull at the hand-over.
  return 0.3 + 0.45 * plateau(hour, 5.8, 22.2, 0.3) - 0.08 * bump(hour, 14, 0.3);
}

/**
 * The daily load curve without season: the fraction of a feeder's nominal current drawn at a
 * local hour on a weekday (0 = Sunday). Residential peaks in the morning and evening,
 * commercial during office hours, industrial over two weekday shifts.
 */
export function loadShape(profile: LoadProfile, hour: number, dayOfWeek: number): number {
  switch (profile) {
    case "residential":
      return residential(hour, dayOfWeek);
    case "commercial":
      return commercial(hour, dayOfWeek);
    case "industrial":
      return industrial(hour, dayOfWeek);
    case "mixed":
      return 0.5 * residential(hour, dayOfWeek) + 0.3 * commercial(hour, dayOfWeek) +
        0.2 * industrial(hour, dayOfWeek);
  }
}

/** Seasonal multiplier of a load curve: electric heating in winter, some cooling in summer. */
export function seasonalFactor(profile: LoadProfile, dayOfYear: number): number {
  const winter = Math.cos((2 * Math.PI * (dayOfYear - 15)) / YEAR_DAYS);
  const summer = Math.max(0, Math.cos((2 * Math.PI * (dayOfYear - 200)) / YEAR_DAYS));
  switch (profile) {
    case "residential":
      return 1 + 0.2 * winter;
    case "commercial":
      return 1 + 0.06 * winter + 0.05 * summer;
    case "industrial":
      return 1 + 0.03 * winter;
    case "mixed":
      return 1 + 0.13 * winter + 0.015 * summer;
  }
}

/** Fraction of nominal current a profile draws at `epochMs` (shape x season, no noise). */
export function loadFraction(profile: LoadProfile, epochMs: number): number {
  const civil = civilTime(epochMs);
  return loadShape(profile, civil.hour, civil.dayOfWeek) *
    seasonalFactor(profile, civil.dayOfYear);
}

/** Sine of the sun's elevation at the simulated location (negative at night). */
export function solarElevationSine(epochMs: number): number {
  const dayOfYear = (epochMs - Date.UTC(new Date(epochMs).getUTCFullYear(), 0, 1)) / DAY_MS + 1;
  const declination = (23.44 * Math.PI / 180) *
    Math.sin((2 * Math.PI * (284 + dayOfYear)) / 365);
  const b = (2 * Math.PI * (dayOfYear - 81)) / 364;
  const equationOfTimeMin = 9.87 * Math.sin(2 * b) - 7.53 * Math.cos(b) - 1.5 * Math.sin(b);
  const utcHour = (((epochMs % DAY_MS) + DAY_MS) % DAY_MS) / HOUR_MS;
  const solarHour = utcHour + SIM_LOCATION.longitudeDeg / 15 + equationOfTimeMin / 60;
  const hourAngle = (15 * (solarHour - 12) * Math.PI) / 180;
  const latitude = (SIM_LOCATION.latitudeDeg * Math.PI) / 180;
  return Math.sin(latitude) * Math.sin(declination) +
    Math.cos(latitude) * Math.cos(declination) * Math.cos(hourAngle);
}

/** The weather of a day for PV. */
export type Sky = "clear" | "partly" | "overcast";

const SKY_SALT = 0x5eed51;

/** The sky of local day `dayIndex` (days since 1970 in local time): more clear days in summer. */
export function skyOfDay(dayIndex: number, seed: number): Sky {
  const dayOfYear = civilTime(dayIndex * DAY_MS + 12 * HOUR_MS).dayOfYear;
  const summer = 0.5 - 0.5 * Math.cos((2 * Math.PI * (dayOfYear - 15)) / YEAR_DAYS);
  const draw = unit(mix(mix(seed, SKY_SALT), dayIndex));
  const clear = 0.3 + 0.25 * summer;
  if (draw < clear) return "clear";
  return draw < clear + 0.35 ? "partly" : "overcast";
}

/** Share of clear-sky irradiance reaching the panels (0..1), varying within cloudy days. */
export function clearSkyIndex(sky: Sky, epochMs: number, seed: number): number {
  const key = mix(seed, SKY_SALT + 1);
  switch (sky) {
    case "clear":
      return 0.97 + 0.03 * valueNoise(key, epochMs, 20 * 60_000);
    case "partly": {
      const clouds = 0.6 * valueNoise(key, epochMs, 6 * 60_000) +
        0.4 * valueNoise(key + 1, epochMs, 40 * 60_000);
      return Math.min(1, Math.max(0.2, 0.62 + 0.45 * clouds));
    }
    case "overcast":
      return 0.17 + 0.07 * valueNoise(key + 2, epochMs, 30 * 60_000);
  }
}

/** PV output as a fraction of peak (0..1) at `epochMs`: sun height x clouds of the day. */
export function pvFraction(epochMs: number, seed: number): number {
  const sine = solarElevationSine(epochMs);
  if (sine <= 0) return 0;
  const dayIndex = civilTime(epochMs).dayIndex;
  const clearSky = Math.min(1, 1.08 * Math.pow(sine, 1.25));
  return clearSky * clearSkyIndex(skyOfDay(dayIndex, seed), epochMs, seed);
}

/** Grid frequency deviation in Hz, shared by every cell: a bounded walk within +/-0.05 Hz. */
export function frequencyOffsetHz(epochMs: number, seed: number): number {
  const key = mix(seed, 0xf4e9);
  const walk = 0.6 * valueNoise(key, epochMs, 90_000) +
    0.35 * valueNoise(key + 1, epochMs, 12 * 60_000) +
    0.25 * valueNoise(key + 2, epochMs, HOUR_MS);
  return 0.05 * Math.max(-1, Math.min(1, walk));
}

/**
 * Relative MV voltage variation seen by every cell (about +/-1 %): slightly lower when the whole
 * grid is loaded, plus slow and fast wander.
 */
export function mvVariation(epochMs: number, seed: number): number {
  const key = mix(seed, 0x3e57);
  const grid = loadFraction("mixed", epochMs);
  return 0.004 - 0.012 * grid + 0.004 * valueNoise(key, epochMs, 20 * 60_000) +
    0.0015 * valueNoise(key + 1, epochMs, 2 * 60_000);
}

/** Share of electronic loads (0..1) by local hour: drives voltage THD, highest in the evening. */
export function electronicsShare(hour: number): number {
  return Math.min(1, 0.22 + 0.7 * bump(hour, 20.5, 2.2) + 0.25 * bump(hour, 12.5, 3));
}

/** Relative voltage harmonic amplitudes 2..25 before the per-window variation. */
const HARMONIC_WEIGHTS = new Float64Array([
  0.04, // 2
  0.3, // 3
  0.02, // 4
  1, // 5
  0.01, // 6
  0.7, // 7
  0.01, // 8
  0.08, // 9
  0.01, // 10
  0.3, // 11
  0.01, // 12
  0.22, // 13
  0.01, // 14
  0.03, // 15
  0.01, // 16
  0.12, // 17
  0.01, // 18
  0.09, // 19
  0.01, // 20
  0.02, // 21
  0.01, // 22
  0.07, // 23
  0.01, // 24
  0.06, // 25
]);

/**
 * Writes harmonics 2..25 (24 values, % of fundamental) at `out[offset..offset+24)` so that their
 * root sum of squares equals `thdPct`: odd ones larger, 5th and 7th dominant. `v5`, `v7`, `v3`
 * in [-1, 1] vary the 5th, 7th and 3rd between windows.
 */
export function fillVoltageHarmonics(
  thdPct: number,
  v5: number,
  v7: number,
  v3: number,
  out: Float64Array,
  offset: number,
): void {
  let sum = 0;
  for (let k = 0; k < 24; k++) {
    let w = HARMONIC_WEIGHTS[k]!;
    if (k === 3) w *= 1 + 0.15 * v5;
    else if (k === 5) w *= 1 + 0.15 * v7;
    else if (k === 1) w *= 1 + 0.3 * v3;
    out[offset + k] = w;
    sum += w * w;
  }
  const scale = thdPct / Math.sqrt(sum);
  for (let k = 0; k < 24; k++) out[offset + k] = out[offset + k]! * scale;
}

/** The power of one EV charging block: 11 kW over three phases (16 A at 230 V). */
export const EV_BLOCK_KW = 11;

/**
 * The charging session of EV charger `charger` behind a feeder on local day `dayIndex`: writes
 * its start and end in local ms (see `CivilTime.localMs`) to `out[0..2)` and returns true, or
 * returns false when no car charges that day. Cars arrive 16:30-20:30 and need 6-40 kWh.
 */
export function evSession(
  feederKey: number,
  dayIndex: number,
  charger: number,
  out: Float64Array,
): boolean {
  const h = mix(mix(feederKey, dayIndex), charger + 0xe5);
  const dayOfWeek = (((dayIndex + 4) % 7) + 7) % 7;
  const chance = dayOfWeek === 0 || dayOfWeek === 6 ? 0.45 : 0.65;
  if (unit(h) >= chance) return false;
  const arrival = 16.5 + 2 * (unit(mix(h, 1)) + unit(mix(h, 2)));
  const energyKwh = 6 + 34 * unit(mix(h, 3));
  const start = dayIndex * DAY_MS + Math.round(arrival * HOUR_MS);
  out[0] = start;
  out[1] = start + Math.round((energyKwh / EV_BLOCK_KW) * HOUR_MS);
  return true;
}

/**
 * The night heating run of the boilers behind a feeder, released by ripple control at 22:00
 * plus a per-feeder stagger, lasting 2.5-5.5 h: writes start and end in local ms to `out`.
 */
export function boilerRun(feederKey: number, dayIndex: number, out: Float64Array): void {
  const staggerMin = Math.floor(unit(mix(feederKey, 0xb011)) * 45);
  const start = dayIndex * DAY_MS + 22 * HOUR_MS + staggerMin * 60_000;
  out[0] = start;
  out[1] = start + Math.round((2.5 + 3 * unit(mix(feederKey, dayIndex))) * HOUR_MS);
}

/** A signed per-key constant in [-1, 1): fixed traits of a cell or feeder. */
export function trait(key: number, salt: number): number {
  return signedUnit(mix(key, salt));
}
