/**
 * The IO monitoring contract (iom): the electrical works with their active I/O modules and each
 * channel's newest value, and a work's channel history, shared with the web app (types with
 * `import type`). Pure: imports only zod.
 */
import { z } from "zod";

/** I/O module types of spec 3 (digital input, digital output, analog input). */
export const IO_MODULE_TYPES = ["DIGITAL_INPUT", "DIGITAL_OUTPUT", "ANALOG_INPUT"] as const;
export type IoModuleType = (typeof IO_MODULE_TYPES)[number];

/** The levels a history is read from (20-s values, or means over 10 minutes, 1 h, 1 day). */
export const IO_RESOLUTIONS = ["20s", "10min", "1h", "1d"] as const;
export type IoResolution = (typeof IO_RESOLUTIONS)[number];

/** The signal of an analog system type: its range and unit. */
export const SIGNAL_RANGES: Readonly<Record<string, { low: number; high: number; unit: string }>> =
  {
    "4_20MA": { low: 4, high: 20, unit: "mA" },
    "0_10V": { low: 0, high: 10, unit: "V" },
  };

/** An analog input's measuring range: the signal maps linearly onto [min, max] in `unit`. */
export const ioScaleDto = z.object({ min: z.number(), max: z.number(), unit: z.string() })
  .meta({ id: "IoScaleDto" });
export type IoScaleDto = z.output<typeof ioScaleDto>;

/**
 * The measured quantity of a signal value: linear from the system type's signal range onto the
 * measuring range (4-20 mA onto -20..80 °C: 12 mA is 30 °C), 2 decimals; null without a range
 * or a signal range. Values outside the signal range extrapolate (a broken loop reads low).
 */
export function scaleSignal(
  value: number | null,
  systemType: string,
  scale: IoScaleDto | null,
): number | null {
  const signal = SIGNAL_RANGES[systemType];
  if (value === null || !scale || !signal) return null;
  const scaled = scale.min + ((value - signal.low) / (signal.high - signal.low)) *
      (scale.max - scale.min);
  return Math.round(scaled * 100) / 100;
}

/** The newest value of a channel. */
export const channelDto = z.object({
  channel: z.number(),
  /** Newest value of the last 2 days: 0/1 digital, the signal (mA or V) analog; null: none. */
  value: z.number().nullable(),
  /** Analog input with a measuring range: the measured quantity in the range's unit. */
  scaled: z.number().nullable(),
  at: z.string().nullable(),
  /** Digital: since when the current state holds (its first value in the stored data). */
  since: z.string().nullable(),
}).meta({ id: "IoChannelDto" });
export type ChannelDto = z.output<typeof channelDto>;

const moduleFields = {
  slot: z.number(),
  module_id: z.string(),
  name: z.string(),
  module_type: z.enum(IO_MODULE_TYPES),
  system_type: z.string(),
  size: z.number(),
  resolution: z.number(),
  /** An analog input's measuring range, or null (the signal is shown). */
  scale: ioScaleDto.nullable(),
};

/** An active I/O module of a cell with its channels. */
export const ioModuleDto = z.object({
  ...moduleFields,
  /** Unit of an analog input's values (mA for 4-20 mA, V for 0-10 V), "" for digital ones. */
  unit: z.string(),
  channels: z.array(channelDto),
}).meta({ id: "IoModuleDto" });
export type IoModuleDto = z.output<typeof ioModuleDto>;

export const ioCellDto = z.object({
  cell_id: z.string(),
  node_id: z.string(),
  node_name: z.string(),
  last_data_at: z.string().nullable(),
  modules: z.array(ioModuleDto),
}).meta({ id: "IoCellDto" });
export type IoCellDto = z.output<typeof ioCellDto>;

export const ioElectricalWorkDto = z.object({
  key: z.string(),
  name: z.string(),
  type: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  cells: z.array(ioCellDto),
}).meta({ id: "IoElectricalWorkDto" });
export type IoElectricalWorkDto = z.output<typeof ioElectricalWorkDto>;

/** `GET /iom/electrical-works`. */
export const ioElectricalWorksDto = z.object({
  electrical_works: z.array(ioElectricalWorkDto),
  generated_at: z.string(),
}).meta({ id: "IoElectricalWorksDto" });
export type IoElectricalWorksDto = z.output<typeof ioElectricalWorksDto>;

const channelHistory = {
  cell_id: z.string(),
  node_name: z.string(),
  slot: z.number(),
  module_name: z.string(),
  module_type: z.enum(IO_MODULE_TYPES),
  system_type: z.string(),
  channel: z.number(),
  /** The unit of the values: the measuring range's when the module has one, else the signal's. */
  unit: z.string(),
  /** True when the values are scaled onto the module's measuring range. */
  scaled: z.boolean(),
};
const values = z.array(z.number().nullable());

/** A digital state from `t` (epoch ms) on; null starts a gap. */
export const stepPointDto = z.object({
  t: z.number(),
  value: z.union([z.literal(0), z.literal(1)]).nullable(),
});
export type StepPointDto = z.output<typeof stepPointDto>;

/** `GET /iom/electrical-works/{key}/history`. */
export const ioHistoryDto = z.object({
  key: z.string(),
  name: z.string(),
  from: z.string(),
  to: z.string(),
  /** Digital channels: the state from each point's time on. */
  digital: z.array(z.object({ ...channelHistory, points: z.array(stepPointDto) })),
  /** Analog channels on the regular slot grid `times` (epoch ms); null = no value. */
  resolution: z.enum(IO_RESOLUTIONS),
  step_s: z.number(),
  times: z.array(z.number()),
  analog: z.array(z.object({ ...channelHistory, mean: values, min: values, max: values })),
}).meta({ id: "IoHistoryDto" });
export type IoHistoryDto = z.output<typeof ioHistoryDto>;

/** The period of a history: ISO instants (checked by the service: 10 minutes to 366 days). */
export const historyQuery = z.strictObject({ from: z.string().max(40), to: z.string().max(40) });
