/**
 * The grid setup rules for the forms: the limits are the server's own (modules/grid/structure/validation.ts,
 * pure), the messages use the same keys (namespace `errors`), so a form shows exactly what the
 * server would answer before the call is made.
 */
import type {
  FeederBody,
  NewNodeBody,
  NodeUpdateBody,
} from "../../../../../modules/grid/contract.ts";
import type { ElectricalWorkType, FeederType } from "./grid-api.ts";

/** A message key of the `errors` namespace with its parameters. */
export interface RuleMessage {
  key: string;
  params?: Record<string, unknown>;
}

export {
  FEEDER_FIELDS,
  GRID_NAME,
  MAX_FEEDERS,
  NEW_NODE_NAME,
  NOMINAL_CURRENT,
  type NumericField,
  VECTOR_GROUPS,
} from "../../../../../modules/grid/structure/validation.ts";
import {
  FEEDER_FIELDS,
  FORBIDDEN_NAME_CHARS as FORBIDDEN,
  GRID_NAME,
  LINE_TYPES,
  NOMINAL_CURRENT,
  type NumericField,
  VECTOR_GROUPS,
} from "../../../../../modules/grid/structure/validation.ts";

export const isLine = (type: FeederType) => LINE_TYPES.includes(type);

/** A feeder form's values: the call's body, with numbers that may still be missing. */
export type FeederForm = Omit<FeederBody, "nominal_current_a" | "parameters"> & {
  nominal_current_a: number | null;
  parameters: Record<string, unknown>;
};

/** A node form's values: the call's body, with numbers that may still be missing. */
export type NodeForm = Omit<NodeUpdateBody, "latitude" | "longitude" | "electrical_work"> & {
  electrical_work: { name: string; type: ElectricalWorkType };
  latitude: number | null;
  longitude: number | null;
};

/** A feeder form whose rules passed is what the server takes: its numbers are set. */
export const feederBody = (form: FeederForm) => form as FeederBody;
/** A node form whose rules passed, as the body of a change. */
export const nodeBody = (form: NodeForm) => form as NodeUpdateBody;
/** A new node: the node form, its LV group and its first feeders. */
export const newNodeBody = (form: NodeForm, lvGroupId: string, feeders: FeederForm[]) =>
  ({ ...nodeBody(form), lv_group_id: lvGroupId, feeders: feeders.map(feederBody) }) as NewNodeBody;

/** The message of a name, or null when valid. */
export function nameMessage(
  value: string,
  limits: { min: number; max: number } = GRID_NAME,
): RuleMessage | null {
  const name = value.trim();
  if (!name) return { key: "validation.pleaseInputName" };
  if (name.length < limits.min) return { key: "validation.nameMin", params: { count: limits.min } };
  if (name.length > limits.max) return { key: "validation.nameMax", params: { count: limits.max } };
  if (FORBIDDEN.test(name)) return { key: "validation.forbiddenChars" };
  return null;
}

/** Parses a form number ("" is empty); returns NaN for text that is not a number. */
export function parseNumber(text: string): number | null {
  const trimmed = text.trim().replace(",", ".");
  if (!trimmed) return null;
  return /^-?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

/** The message of a required number in its range with at most two decimals. */
export function numberMessage(value: number | null, field: NumericField): RuleMessage | null {
  if (value === null) return { key: "validation.required" };
  if (Number.isNaN(value)) return { key: "validation.onlyNumbers" };
  if (field.integer && !Number.isInteger(value)) return { key: "validation.integerOnly" };
  const twoDecimals = Math.abs(value * 100 - Math.round(value * 100)) < 1e-6;
  if (value < field.min || value > field.max || !twoDecimals) {
    return { key: "validation.range", params: { min: field.min, max: field.max } };
  }
  return null;
}

/** Messages of a feeder form by field (`name`, `in_out`, `nominal_current_a`, parameter names). */
export function feederMessages(feeder: FeederForm): Record<string, RuleMessage> {
  const out: Record<string, RuleMessage> = {};
  const set = (path: string, message: RuleMessage | null) => {
    if (message) out[path] = message;
  };
  set("name", nameMessage(feeder.name));
  set("nominal_current_a", numberMessage(feeder.nominal_current_a, NOMINAL_CURRENT));
  for (const field of FEEDER_FIELDS[feeder.type]) {
    const raw = feeder.parameters[field.name];
    set(field.name, numberMessage(typeof raw === "number" ? raw : null, field));
  }
  if (
    feeder.type === "TRANSFORMER" &&
    !(VECTOR_GROUPS as readonly unknown[]).includes(feeder.parameters.vectorGroup)
  ) {
    set("vectorGroup", { key: "validation.required" });
  }
  if (isLine(feeder.type) && feeder.parameters.meshed === true && feeder.in_out === "OUT") {
    set("in_out", { key: "validation.meshedFeederAsInput" });
  }
  return out;
}

/** Coordinates: required numbers within ±90 / ±180. */
export function coordinateMessage(value: number | null, limit: number, required = true) {
  if (value === null) return required ? { key: "validation.required" } : null;
  if (Number.isNaN(value)) return { key: "validation.onlyNumbers" };
  if (Math.abs(value) > limit) {
    return { key: "validation.range", params: { min: -limit, max: limit } };
  }
  return null;
}
