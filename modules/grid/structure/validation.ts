/**
 * The limits of the grid setup (spec 5): names, feeder fields per type, numeric ranges with two
 * decimals, the vector groups, and the field rules as zod schemas with the message keys of the
 * error catalogue (`validation.*` in errors.json), which the contract's input schemas
 * (contract.ts) are built from; the web forms use the same limits and keys. Pure: imports only
 * zod and the contract's types.
 */
import { z } from "zod";
import type { FeederType } from "./contract.ts";

/** Grid item names (station group, MV feeder group, LV group, electrical work, feeder). */
export const GRID_NAME = { min: 3, max: 60 } as const;
/** Names of new nodes (and I/O configuration names). */
export const NEW_NODE_NAME = { min: 3, max: 20 } as const;
/** Characters not allowed in names: : < > " / \ | ? * ! */
export const FORBIDDEN_NAME_CHARS = /[:<>"/\\|?*!]/;
/** Spec 9: maximum feeders per node. */
export const MAX_FEEDERS = 6;
/** Spec 3: vector groups of a transformer. */
export const VECTOR_GROUPS = ["Dy1", "Dy5", "Dy11", "Yy0", "Yz5", "Yz11"] as const;

/** A numeric field with its range (inclusive, at most two decimals). */
export interface NumericField {
  name: string;
  min: number;
  max: number;
  unit: string;
  integer?: boolean;
}

/**
 * The spec's ranges (0-10, 0-20, 0.7-1, 1-200, 1-3000, 100-500, 5-3000, 80-100, 1-40, 0.85-46)
 * assigned to the feeder fields; docs/decisions.md explains the assignment.
 */
export const NOMINAL_CURRENT: NumericField = {
  name: "nominal_current_a",
  min: 5,
  max: 3000,
  unit: "A",
};
const TRANSFORMER_FIELDS: NumericField[] = [
  { name: "impedanceVoltage", min: 0, max: 20, unit: "%" },
  { name: "lvOperatingTap", min: 100, max: 500, unit: "V" },
  { name: "mvOperatingTap", min: 0.85, max: 46, unit: "kV" },
  { name: "nominalMvVoltage", min: 0.85, max: 46, unit: "kV" },
  { name: "nominalPower", min: 1, max: 3000, unit: "kVA" },
];
export const FEEDER_FIELDS: Readonly<Record<FeederType, readonly NumericField[]>> = {
  TRANSFORMER: TRANSFORMER_FIELDS,
  LV_LINE: [],
  MV_LINE: [],
  PV_INVERTER: [{ name: "minimumPowerFactor", min: 0.7, max: 1, unit: "" }],
  BATTERY: [
    { name: "minSoc", min: 0, max: 10, unit: "%" },
    { name: "maxSoc", min: 80, max: 100, unit: "%" },
    { name: "nominalEnergySize", min: 1, max: 200, unit: "kWh" },
  ],
  EVSE: [],
  BOILER: [{ name: "boilersInSeries", min: 1, max: 40, unit: "", integer: true }],
};

/** Line feeders may belong to a meshed network (then they must be Input). */
export const LINE_TYPES: readonly FeederType[] = ["LV_LINE", "MV_LINE"];

/** Whether a number is within a field's range with at most two decimals (integers if asked). */
export function withinRange(value: number, field: NumericField): boolean {
  if (field.integer && !Number.isInteger(value)) return false;
  return value >= field.min && value <= field.max &&
    Math.abs(value * 100 - Math.round(value * 100)) <= 1e-6;
}

/** Keeps only the parameters of a feeder type (unknown keys are dropped, not stored). */
export function feederParameters(
  type: FeederType,
  parameters: Record<string, unknown>,
): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const field of FEEDER_FIELDS[type]) kept[field.name] = parameters[field.name];
  if (type === "TRANSFORMER") {
    kept.vectorGroup = parameters.vectorGroup;
    kept.mvVoltageEstimation = parameters.mvVoltageEstimation;
  }
  if (LINE_TYPES.includes(type)) kept.meshed = parameters.meshed === true;
  return kept;
}

/** Spec 5: a transformer feeder with MV estimation needs L1, L2 and L3 mapped. */
export function hasThreePhaseMapping(phases: Iterable<string>): boolean {
  const mapped = new Set(phases);
  return ["L1", "L2", "L3"].every((p) => mapped.has(p));
}

// ---- The rules as zod schemas, with the message keys of the catalogue -----------------------

/** A grid item's name: trimmed, within the limits, none of : < > " / \ | ? * ! (spec 5). */
export function gridName(limits: { min: number; max: number } = GRID_NAME) {
  return z.string({ error: "validation.pleaseInputName" }).trim()
    .refine((v) => v.length > 0, { message: "validation.pleaseInputName", abort: true })
    .min(limits.min, { message: "validation.nameMin", abort: true })
    .max(limits.max, { message: "validation.nameMax", abort: true })
    .refine((v) => !FORBIDDEN_NAME_CHARS.test(v), "validation.forbiddenChars");
}

const missing = (input: unknown) => input === undefined || input === null || input === "";

/** A required number of a feeder field: its range, at most two decimals, integers if asked. */
export function numeric(field: NumericField) {
  const number = z.number({
    error: (issue) => missing(issue.input) ? "validation.required" : "validation.onlyNumbers",
  });
  const whole = field.integer
    ? number.int({ message: "validation.integerOnly", abort: true })
    : number;
  return whole.refine((v) => withinRange(v, field), {
    message: "validation.range",
    params: { min: field.min, max: field.max },
  });
}

/** A required coordinate in degrees within ±limit. */
export function coordinate(limit: number) {
  return z.number({
    error: (issue) => missing(issue.input) ? "validation.required" : "validation.onlyNumbers",
  }).refine((v) => Math.abs(v) <= limit, {
    message: "validation.range",
    params: { min: -limit, max: limit },
  });
}

/** An optional coordinate: "", null and none are stored as null. */
export function optionalCoordinate(limit: number) {
  return z.union([coordinate(limit), z.literal(""), z.null()], {
    error: "validation.onlyNumbers",
  }).optional().transform((v) => (v === "" || v === undefined ? null : v));
}
