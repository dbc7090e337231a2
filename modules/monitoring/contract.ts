/**
 * The monitoring contract (evm): grid status per voltage level, one node's detail and history,
 * and custom monitoring (requests, their values, automatic triggers), shared with the web app
 * (types with `import type`). Pure: imports only zod and the grid's contract (the voltage
 * levels and which feeders show at MV are the grid's).
 */
import { z } from "zod";
import { ELECTRICAL_WORK_TYPES, FEEDER_TYPES, LEVELS } from "../grid/contract.ts";

/** The voltage levels, the grid's (the `level` parameter). */
export { type Level, LEVELS } from "../grid/contract.ts";

/** States from best to worst (the streaming core evaluates the same list). */
export const GRID_STATES = [
  "OK",
  "UNDERVOLTAGE",
  "OVERVOLTAGE",
  "OVERCURRENT",
  "NO_DATA",
  "INTERRUPTION",
] as const;
export type GridState = (typeof GRID_STATES)[number];
/** A state other than OK: what a warning is about. */
export type WarningState = Exclude<GridState, "OK">;

export const LINE_PHASES = ["L1", "L2", "L3"] as const;
/** The line phases and the neutral (current only). */
export const PHASES = [...LINE_PHASES, "N"] as const;
export type Phase = (typeof PHASES)[number];

const state = z.enum(GRID_STATES);
const linePhase = z.enum(LINE_PHASES);
const phase = z.enum(PHASES);
const named = { id: z.string(), name: z.string() };
const values = z.array(z.number().nullable());

// ---- Grid status -------------------------------------------------------------------------

/** One phase of a feeder in the status: latest U (V) and I (A), 2 decimals, and its state. */
export const phaseStatusDto = z.object({
  phase: linePhase,
  u: z.number().nullable(),
  i: z.number().nullable(),
  state,
}).meta({ id: "PhaseStatusDto" });
export type PhaseStatusDto = z.output<typeof phaseStatusDto>;

/** A feeder of a node in the full view. */
export const feederStatusDto = z.object({
  ...named,
  slot: z.number(),
  /** The structure's feeder type. */
  type: z.enum(FEEDER_TYPES),
  state,
  phases: z.array(phaseStatusDto),
}).meta({ id: "FeederStatusDto" });
export type FeederStatusDto = z.output<typeof feederStatusDto>;

/** A node in the status tree (what the grid-monitoring screen shows of it). */
export const nodeStatusDto = z.object({
  ...named,
  latitude: z.number(),
  longitude: z.number(),
  upstream_node_id: z.string().nullable(),
  electrical_work: z.object({ name: z.string(), type: z.enum(ELECTRICAL_WORK_TYPES) }),
  /**
   * The node has medium voltage values (an MV line, or a transformer with MV estimation):
   * false disables the Medium Voltage toggle while the node is selected (spec 2.4).
   */
  has_mv_values: z.boolean(),
  state,
  /** The most upstream silent or interrupted node explaining this node's alarm. */
  suppressed_by: z.string().nullable(),
  last_value_at: z.string().nullable(),
  /** In the full view only: `view=summary` leaves them out. */
  feeders: z.array(feederStatusDto).optional(),
}).meta({ id: "NodeStatusDto" });
export type NodeStatusDto = z.output<typeof nodeStatusDto>;

/** The station-group tree of a status answer around its nodes. */
function statusTree<N extends z.ZodType>(node: N) {
  const lvGroup = z.object({ ...named, state, nodes: z.array(node) });
  const mvFeederGroup = z.object({ ...named, state, lv_groups: z.array(lvGroup) });
  return z.object({
    level: z.enum(LEVELS),
    /** ISO time of the evaluation that answers. */
    evaluated_at: z.string(),
    /** False disables the Medium Voltage toggle. */
    has_mv_values: z.boolean(),
    /** Nodes not OK whose alarm no upstream outage explains. */
    alarms: z.number(),
    counts: z.record(state, z.number()),
    station_groups: z.array(
      z.object({ ...named, state, mv_feeder_groups: z.array(mvFeederGroup) }),
    ),
  });
}

/** `GET /evm/grid-monitoring/grid-status`: the station-group tree with states. */
export const gridStatusDto = statusTree(nodeStatusDto).meta({ id: "GridStatusDto" });
export type GridStatusDto = z.output<typeof gridStatusDto>;

const fullNodeStatus = nodeStatusDto.required({ feeders: true });
/** A node of the full view (the default): with its feeders. */
export type FullNodeStatusDto = z.output<typeof fullNodeStatus>;
/** The answer of the full view. */
export type FullGridStatusDto = z.output<ReturnType<typeof statusTree<typeof fullNodeStatus>>>;

/** `GET /evm/grid-monitoring/grid-status`. */
export const gridStatusQuery = z.strictObject({
  level: z.enum(LEVELS),
  /** `summary` (what the screen loads) leaves out the nodes' feeders. */
  view: z.enum(["full", "summary"]).default("full"),
});
export type StatusView = z.output<typeof gridStatusQuery>["view"];

// ---- One node ----------------------------------------------------------------------------

/** A warning of a node: one phase not OK, and since when. */
export const nodeWarningDto = z.object({
  feeder_id: z.string(),
  feeder_name: z.string(),
  phase: linePhase,
  state: z.enum(GRID_STATES).exclude(["OK"]),
  /** The first value of the current unbroken run (NO_DATA: the last value; null: never). */
  since: z.string().nullable(),
  /** The run reaches back to the start of the searched history (7 days): it began earlier. */
  since_earlier: z.boolean(),
}).meta({ id: "NodeWarningDto" });
export type NodeWarningDto = z.output<typeof nodeWarningDto>;

/** `GET /evm/grid-monitoring/nodes/{id}?level=`: the node as the evaluation sees it. */
export const nodeDetailDto = z.object({
  level: z.enum(LEVELS),
  evaluated_at: z.string(),
  ...named,
  latitude: z.number(),
  longitude: z.number(),
  upstream_node_id: z.string().nullable(),
  electrical_work: z.object({ name: z.string(), type: z.enum(ELECTRICAL_WORK_TYPES) }),
  station_group: z.object(named),
  mv_feeder_group: z.object(named),
  lv_group: z.object(named),
  state,
  /** The upstream node whose outage explains this node's alarm. */
  suppressed_by: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
  last_value_at: z.string().nullable(),
  /** The rules the states were evaluated with. */
  limits: z.object({
    nominal_voltage_v: z.number(),
    undervoltage_v: z.number(),
    overvoltage_v: z.number(),
    overcurrent_pct: z.number(),
  }),
  feeders: z.array(z.object({
    ...named,
    slot: z.number(),
    type: z.enum(FEEDER_TYPES),
    nominal_current_a: z.number(),
    /** A = overcurrent above this. */
    overcurrent_a: z.number(),
    state,
    /** L1..L3, then N (current only, no state) when the cell reports it. */
    phases: z.array(z.object({
      phase,
      u: z.number().nullable(),
      i: z.number().nullable(),
      state: state.nullable(),
      last_value_at: z.string().nullable(),
    })),
  })),
  warnings: z.array(nodeWarningDto),
}).meta({ id: "NodeDetailDto" });
export type NodeDetailDto = z.output<typeof nodeDetailDto>;

/** `GET /evm/grid-monitoring/nodes/{id}/values`: per feeder and phase on a regular grid. */
export const nodeValuesDto = z.object({
  node_id: z.string(),
  level: z.enum(LEVELS),
  from: z.string(),
  to: z.string(),
  resolution: z.enum(["20s", "10min"]),
  step_s: z.number(),
  /** Slot starts, epoch ms. */
  times: z.array(z.number()),
  feeders: z.array(z.object({
    ...named,
    slot: z.number(),
    /** Per phase the value of each slot, null where none was stored (a gap). */
    phases: z.array(z.object({ phase, u: values, i: values })),
  })),
}).meta({ id: "NodeValuesDto" });
export type NodeValuesDto = z.output<typeof nodeValuesDto>;

export const nodeQuery = z.strictObject({ level: z.enum(LEVELS) });
/** Periods are checked by the service, so that a wrong one answers the data codes (401-403). */
export const nodeValuesQuery = z.strictObject({
  level: z.enum(LEVELS),
  from: z.string().max(64).optional(),
  to: z.string().max(64).optional(),
});

// ---- Custom monitoring -------------------------------------------------------------------

const range = (from: number, to: number, step: number) =>
  Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, k) => from + k * step);

/** Spec 9, automatic triggers: 1 to 5, then 10 to 60 step 10 minutes. */
export const AUTOMATIC_DURATIONS: readonly number[] = Object.freeze([
  ...range(1, 5, 1),
  ...range(10, 60, 10),
]);
/** Spec 9, manual requests: the automatic list, then 120 to 1440 step 60 minutes. */
export const MANUAL_DURATIONS: readonly number[] = Object.freeze([
  ...AUTOMATIC_DURATIONS,
  ...range(120, 1440, 60),
]);

export const REQUEST_KINDS = ["MANUAL", "AUTOMATIC"] as const;
/** How a custom monitoring request started. */
export type RequestKind = (typeof REQUEST_KINDS)[number];
export const REQUEST_STATUSES = ["RUNNING", "STOPPED", "FINISHED"] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

/** Whether `minutes` is in the list of `kind` (a request without end is not a duration). */
export function isAllowedDuration(kind: RequestKind, minutes: number): boolean {
  return (kind === "MANUAL" ? MANUAL_DURATIONS : AUTOMATIC_DURATIONS).includes(minutes);
}

/** A request as the API shows it. */
export const requestDto = z.object({
  id: z.string(),
  node_id: z.string(),
  feeder_id: z.string().nullable(),
  cell_id: z.string(),
  kind: z.enum(REQUEST_KINDS),
  trigger_id: z.string().nullable(),
  /** null: runs until stopped. */
  duration_min: z.number().nullable(),
  started_at: z.string(),
  ends_at: z.string().nullable(),
  stopped_at: z.string().nullable(),
  status: z.enum(REQUEST_STATUSES),
  created_by: z.string(),
  created_at: z.string(),
}).meta({ id: "RequestDto" });
export type RequestDto = z.output<typeof requestDto>;

/** `GET /evm/custom-monitoring/requests/{id}/values`: the 20-s values of its window. */
export const requestValuesDto = z.object({
  request_id: z.string(),
  node_id: z.string(),
  /** The window answered, [from, to). */
  from: z.string(),
  to: z.string(),
  interval_s: z.number(),
  feeders: z.array(z.object({
    ...named,
    slot: z.number(),
    level: z.enum(LEVELS),
    /** Columnar per phase; `t` in epoch ms. N carries current only and appears when reported. */
    phases: z.array(z.object({ phase, t: z.array(z.number()), u: values, i: values })),
  })),
}).meta({ id: "RequestValuesDto" });
export type RequestValuesDto = z.output<typeof requestValuesDto>;

/** An automatic trigger; `node_id` null is customer-wide. */
export const triggerDto = z.object({
  id: z.string(),
  node_id: z.string().nullable(),
  delta_lv_a: z.number(),
  delta_mv_a: z.number(),
  duration_min: z.number(),
  enabled: z.boolean(),
  created_by: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  /** The latest fire: STARTED with its request, or FAILURE with the code that refused it. */
  last_fire: z.object({
    at: z.string(),
    status: z.enum(["STARTED", "FAILURE"]),
    code: z.number().nullable(),
    request_id: z.string().nullable(),
  }).nullable(),
}).meta({ id: "TriggerDto" });
export type TriggerDto = z.output<typeof triggerDto>;

const id = z.string().min(1).max(200);
const manualDuration = z.number().int()
  .refine((m) => isAllowedDuration("MANUAL", m), "validation.invalidChoice");
const automaticDuration = z.number().int()
  .refine((m) => isAllowedDuration("AUTOMATIC", m), "validation.invalidChoice");
/** Spec 5: the absolute current deltas are required, 1 to 3000 A with 2 decimals. */
export const DELTA_LIMITS = { min: 1, max: 3000, decimals: 2 } as const;
/** Whether a delta in A (as a number) keeps its range and 2 decimals. */
export function isDelta(amperes: number): boolean {
  return amperes >= DELTA_LIMITS.min && amperes <= DELTA_LIMITS.max &&
    Math.abs(amperes * 100 - Math.round(amperes * 100)) < 1e-6;
}
const amperes = z.number({ error: "validation.required" }).refine(isDelta, {
  message: "validation.range",
  params: { min: DELTA_LIMITS.min, max: DELTA_LIMITS.max },
}).meta({ minimum: DELTA_LIMITS.min, maximum: DELTA_LIMITS.max, multipleOf: 0.01 });

export const requestListQuery = z.strictObject({
  node_id: id.optional(),
  status: z.enum(REQUEST_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
});
/** `POST /evm/custom-monitoring/requests`: start now (`duration_min` null: until stopped). */
export const startRequestInput = z.strictObject({
  node_id: id,
  feeder_id: id.nullable().optional(),
  duration_min: manualDuration.nullable(),
}).meta({ id: "StartRequestInput" });
export type StartRequestInput = z.output<typeof startRequestInput>;
export const requestValuesQuery = z.strictObject({
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
});
export const triggerQuery = z.strictObject({ node_id: id.optional() });
const triggerFields = {
  delta_lv_a: amperes,
  delta_mv_a: amperes,
  duration_min: automaticDuration,
};
/** `POST /evm/custom-monitoring/triggers` (`node_id` null: customer-wide). */
export const triggerCreateInput = z.strictObject({
  node_id: id.nullable(),
  ...triggerFields,
  enabled: z.boolean().optional(),
}).meta({ id: "TriggerCreateInput" });
export type TriggerCreateInput = z.output<typeof triggerCreateInput>;
/** `PUT /evm/custom-monitoring/triggers/{id}`. */
export const triggerUpdateInput = z.strictObject({ ...triggerFields, enabled: z.boolean() })
  .meta({ id: "TriggerUpdateInput" });
export type TriggerUpdateInput = z.output<typeof triggerUpdateInput>;
