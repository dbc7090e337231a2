/**
 * Validation rules of the grid setup (spec 5): names, feeder fields per type, numeric ranges with
 * two decimals, and the feeder rules of a node. Pure functions: each returns the issues it finds
 * as message keys of the error catalogue texts (`validation.*` in errors.json), which the web form
 * shows with the same keys.
 */
import { estimatesMv, FEEDER_TYPES, type FeederType } from "../contract.ts";

export { estimatesMv };

/** One field problem: where, which message key, and the message's parameters. */
export interface Issue {
  path: string;
  key: string;
  params?: Record<string, unknown>;
}

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

/** The issue of a name, or null when it is valid. */
export function nameIssue(
  path: string,
  value: unknown,
  limits: { min: number; max: number } = GRID_NAME,
): Issue | null {
  const name = typeof value === "string" ? value.trim() : "";
  if (!name) return { path, key: "validation.pleaseInputName" };
  if (name.length < limits.min) {
    return { path, key: "validation.nameMin", params: { count: limits.min } };
  }
  if (name.length > limits.max) {
    return { path, key: "validation.nameMax", params: { count: limits.max } };
  }
  if (FORBIDDEN_NAME_CHARS.test(name)) return { path, key: "validation.forbiddenChars" };
  return null;
}

/** The issue of a required number in a range with at most two decimals, or null. */
export function numberIssue(path: string, value: unknown, field: NumericField): Issue | null {
  if (value === undefined || value === null || value === "") {
    return { path, key: "validation.required" };
  }
  if (typeof value !== "number" || !Number.isFinite(value)) {
    return { path, key: "validation.onlyNumbers" };
  }
  if (field.integer && !Number.isInteger(value)) return { path, key: "validation.integerOnly" };
  if (
    value < field.min || value > field.max || Math.abs(value * 100 - Math.round(value * 100)) > 1e-6
  ) {
    return { path, key: "validation.range", params: { min: field.min, max: field.max } };
  }
  return null;
}

/** A feeder as the setup calls receive it. */
export interface FeederInput {
  name: string;
  type: FeederType;
  in_out: "IN" | "OUT";
  nominal_current_a: number;
  parameters: Record<string, unknown>;
}

/** Issues of one feeder: name, in/out, nominal current, type fields, vector group, meshed. */
export function feederIssues(
  prefix: string,
  feeder: Partial<Record<keyof FeederInput, unknown>>,
): Issue[] {
  const issues: Issue[] = [];
  const push = (issue: Issue | null) => issue && issues.push(issue);
  push(nameIssue(`${prefix}name`, feeder.name));
  const type = feeder.type as FeederType;
  if (!FEEDER_TYPES.includes(type)) {
    issues.push({ path: `${prefix}type`, key: "validation.required" });
    return issues;
  }
  if (feeder.in_out !== "IN" && feeder.in_out !== "OUT") {
    issues.push({ path: `${prefix}in_out`, key: "validation.required" });
  }
  push(numberIssue(`${prefix}nominal_current_a`, feeder.nominal_current_a, NOMINAL_CURRENT));
  const parameters =
    (typeof feeder.parameters === "object" && feeder.parameters !== null
      ? feeder.parameters
      : {}) as Record<string, unknown>;
  for (const field of FEEDER_FIELDS[type]) {
    push(numberIssue(`${prefix}parameters.${field.name}`, parameters[field.name], field));
  }
  if (type === "TRANSFORMER") {
    if (!VECTOR_GROUPS.includes(parameters.vectorGroup as (typeof VECTOR_GROUPS)[number])) {
      issues.push({ path: `${prefix}parameters.vectorGroup`, key: "validation.required" });
    }
    if (typeof parameters.mvVoltageEstimation !== "boolean") {
      issues.push({ path: `${prefix}parameters.mvVoltageEstimation`, key: "validation.required" });
    }
  }
  if (LINE_TYPES.includes(type) && parameters.meshed === true && feeder.in_out === "OUT") {
    issues.push({ path: `${prefix}in_out`, key: "validation.meshedFeederAsInput" });
  }
  const batteryMin = parameters.minSoc, batteryMax = parameters.maxSoc;
  if (
    type === "BATTERY" && typeof batteryMin === "number" && typeof batteryMax === "number" &&
    batteryMin >= batteryMax
  ) {
    issues.push({
      path: `${prefix}parameters.maxSoc`,
      key: "validation.range",
      params: { min: 80, max: 100 },
    });
  }
  return issues;
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

/** Coordinates in degrees. */
export function coordinateIssues(
  prefix: string,
  latitude: unknown,
  longitude: unknown,
  required: boolean,
): Issue[] {
  const issues: Issue[] = [];
  const check = (path: string, value: unknown, limit: number) => {
    if (value === undefined || value === null) {
      if (required) issues.push({ path, key: "validation.required" });
      return;
    }
    if (typeof value !== "number" || !Number.isFinite(value)) {
      issues.push({ path, key: "validation.onlyNumbers" });
    } else if (Math.abs(value) > limit) {
      issues.push({ path, key: "validation.range", params: { min: -limit, max: limit } });
    }
  };
  check(`${prefix}latitude`, latitude, 90);
  check(`${prefix}longitude`, longitude, 180);
  return issues;
}

/** Spec 5: a transformer feeder with MV estimation needs L1, L2 and L3 mapped. */
export function hasThreePhaseMapping(phases: Iterable<string>): boolean {
  const mapped = new Set(phases);
  return ["L1", "L2", "L3"].every((p) => mapped.has(p));
}
