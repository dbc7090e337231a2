/**
 * The parts of a batch besides measurements: device status, I/O states and the batch identity.
 */
import type { CellPlan, WindowContext } from "./_context.ts";
import { mix, unit, valueNoise } from "./_random.ts";
import { trait } from "./profiles.ts";
import type { DeviceStatus, IoRecord, SignalQuality } from "./protocol.ts";

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** The firmware version simulated cells report. */
export const SIM_FIRMWARE = "2.4.1";

/**
 * I/O wiring of simulated cells: a door contact, the boiler relay (the boiler's run where the
 * cell measures a boiler, else the utility's night-tariff boiler release) and a cabinet
 * temperature sensor on a 4-20 mA analog input.
 */
export const SIM_IO = {
  door: { module: 1, channel: 1, kind: "DI" },
  boilerRelay: { module: 2, channel: 1, kind: "DO" },
  temperature: { module: 3, channel: 1, kind: "AI" },
} as const;

/** The temperature sensor's range (°C) mapped linearly onto 4-20 mA. */
export const SIM_TEMPERATURE_RANGE_C = [-20, 80] as const;

function hex(value: number): string {
  return (value >>> 0).toString(16).padStart(8, "0");
}

/** A UUID (version 4 layout) drawn from the cell, window and seed: a retry sends the same one. */
export function batchId(plan: CellPlan, ctx: WindowContext): string {
  const h0 = mix(mix(plan.key, ctx.windowIndex), ctx.seed ^ 0xba7c);
  const a = hex(h0);
  const b = hex(mix(h0, 1));
  const c = hex(mix(h0, 2));
  const d = hex(mix(h0, 3));
  const variant = ((parseInt(c[0]!, 16) & 0x3) | 0x8).toString(16);
  return `${a}-${b.slice(0, 4)}-4${b.slice(5, 8)}-${variant}${c.slice(1, 4)}-${c.slice(4)}${d}`;
}

/** Seconds after the window's end the cell sends it (1-3 s). */
export function sendDelayMs(plan: CellPlan, ctx: WindowContext): number {
  return 1000 + Math.floor(unit(mix(mix(plan.key, ctx.windowIndex), 0x5e4d)) * 3) * 1000;
}

function signal(value: number): SignalQuality {
  if (value >= 0.75) return "EXCELLENT";
  if (value >= 0.45) return "GOOD";
  return value >= 0.2 ? "FAIR" : "POOR";
}

/** Device status: GPS fix fixed per cell, GSM signal drifting by the hour, warm enclosures. */
export function deviceStatus(plan: CellPlan, ctx: WindowContext, load: number): DeviceStatus {
  const gsm = 0.7 * plan.gsmBase +
    0.3 * (0.5 + 0.5 * valueNoise(plan.key + 50, ctx.midMs, HOUR_MS));
  const indoor = plan.cell.nodeKind === "MV_LV_STATION" ? 8 : 5;
  const temperature = ctx.ambientC + indoor + 8 * Math.abs(load) + 2 * trait(plan.key, 51);
  return {
    firmware: SIM_FIRMWARE,
    gps_fix: plan.gps,
    gsm_signal: signal(gsm),
    temperature_c: Math.round(temperature * 10) / 10 + 0,
  };
}

/** Whether a maintenance crew has the door open: a weekday visit about every two weeks. */
function doorOpen(plan: CellPlan, ctx: WindowContext): boolean {
  if (ctx.dayOfWeek === 0 || ctx.dayOfWeek === 6) return false;
  const h = mix(mix(plan.key, ctx.dayIndex), 0xd004);
  if (unit(h) >= 0.1) return false;
  const start = 8 * HOUR_MS + unit(mix(h, 1)) * 8 * HOUR_MS;
  const end = start + (15 + unit(mix(h, 2)) * 45) * 60_000;
  const now = ctx.localStartMs - ctx.dayIndex * DAY_MS;
  return now >= start && now < end;
}

/** The night-tariff boiler release: 22:00 to 06:00 local, staggered up to 45 min per cell. */
function boilerRelease(plan: CellPlan, ctx: WindowContext): boolean {
  const stagger = Math.floor(unit(mix(plan.key, 0xb011)) * 45) * 60_000;
  const now = ctx.localStartMs - ctx.dayIndex * DAY_MS;
  return now >= 22 * HOUR_MS + stagger || now < 6 * HOUR_MS + stagger;
}

/**
 * The cabinet temperature (°C): the ambient curve (season and time of day) warmed by the
 * enclosure, a fixed offset per cell and a slow drift, deterministic per cell, time and seed.
 */
export function cabinetTemperature(plan: CellPlan, ctx: WindowContext): number {
  const indoor = plan.cell.nodeKind === "MV_LV_STATION" ? 8 : 5;
  const drift = valueNoise(mix(plan.key, ctx.seed ^ 0x7e3b), ctx.midMs, 3 * HOUR_MS);
  return ctx.ambientC + indoor + 2 * trait(plan.key, 61) + 1.5 * drift;
}

/** A temperature as the 4-20 mA signal of {@link SIM_TEMPERATURE_RANGE_C}, to 0.01 mA. */
export function temperatureToMa(celsius: number): number {
  const [low, high] = SIM_TEMPERATURE_RANGE_C;
  const clamped = Math.min(high, Math.max(low, celsius));
  return Math.round((4 + (16 * (clamped - low)) / (high - low)) * 100) / 100;
}

/** The window's I/O states. */
export function ioRecords(
  plan: CellPlan,
  ctx: WindowContext,
  ts: string,
  boiler: number,
): IoRecord[] {
  const relay = plan.hasBoiler ? boiler >= 0.5 : boilerRelease(plan, ctx);
  return [
    { ts, ...SIM_IO.door, value: doorOpen(plan, ctx) ? 1 : 0 },
    { ts, ...SIM_IO.boilerRelay, value: relay ? 1 : 0 },
    { ts, ...SIM_IO.temperature, value: temperatureToMa(cabinetTemperature(plan, ctx)) },
  ];
}
