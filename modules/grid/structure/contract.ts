/**
 * The grid structure's contract: the grid's enums and MV predicate, the structure read, and the
 * setup calls (docs/contracts.md, "Grid setup calls"): their inputs as zod schemas whose
 * messages are the keys of the error catalogue (the same keys the web forms show), and their
 * answers. Pure: imports only zod and the setup limits (validation.ts).
 */
import { z } from "zod";
import {
  coordinate,
  FEEDER_FIELDS,
  feederParameters,
  gridName,
  LINE_TYPES,
  NEW_NODE_NAME,
  NOMINAL_CURRENT,
  numeric,
  optionalCoordinate,
  VECTOR_GROUPS,
} from "./validation.ts";

export { gridName, numeric };

// ---- Enums and predicates ------------------------------------------------------------------

/** The electrical works a node belongs to (spec 3). */
export const ELECTRICAL_WORK_TYPES = [
  "MV_LV_STATION",
  "LV_CABINET",
  "LV_ACTUATOR",
  "MV_CABINET",
] as const;
export type ElectricalWorkType = (typeof ELECTRICAL_WORK_TYPES)[number];

/** The feeder types of spec 3. */
export const FEEDER_TYPES = [
  "TRANSFORMER",
  "LV_LINE",
  "MV_LINE",
  "PV_INVERTER",
  "BATTERY",
  "EVSE",
  "BOILER",
] as const;
export type FeederType = (typeof FEEDER_TYPES)[number];

/** A feeder's direction. */
export const FEEDER_DIRECTIONS = ["IN", "OUT"] as const;
export type FeederDirection = (typeof FEEDER_DIRECTIONS)[number];

/** The voltage levels of spec 2.3 (the `level` parameter of the monitoring calls). */
export const LEVELS = ["LV", "MV"] as const;
export type Level = (typeof LEVELS)[number];

/** What the predicates read of a feeder. */
type FeederLike = { type: string; parameters: Record<string, unknown> };

/** True when a feeder carries MV values through MV voltage estimation. */
export function estimatesMv(feeder: FeederLike): boolean {
  return feeder.type === "TRANSFORMER" && feeder.parameters.mvVoltageEstimation === true;
}

/**
 * Whether a feeder shows at MV: an MV line, or a transformer with MV voltage estimation (its
 * values are estimated on the MV side). Every other feeder shows at LV.
 */
export function isMvFeeder(feeder: FeederLike): boolean {
  return feeder.type === "MV_LINE" || estimatesMv(feeder);
}

/** The level a feeder shows at. */
export function feederLevel(feeder: FeederLike): Level {
  return isMvFeeder(feeder) ? "MV" : "LV";
}

const requiredChoice = "validation.required";
const id = z.string({ error: requiredChoice }).max(200);

// ---- Inputs --------------------------------------------------------------------------------

/** `POST /gsm/hv-mv-station-groups`, `PUT .../{id}`: a station group and its position. */
export const stationGroupInput = z.object({
  name: gridName(),
  latitude: optionalCoordinate(90),
  longitude: optionalCoordinate(180),
}).meta({ id: "StationGroupInput" });
export type StationGroupInput = z.output<typeof stationGroupInput>;
/** What the web sends for a station group. */
export type StationGroupBody = z.input<typeof stationGroupInput>;

/** `PUT /gsm/mv-feeder-groups/{id}`, `PUT /gsm/lv-groups/{id}`: a new name. */
export const groupNameInput = z.object({ name: gridName() }).meta({ id: "GroupNameInput" });
export type GroupNameInput = z.output<typeof groupNameInput>;

/** `POST /gsm/mv-feeder-groups`: an MV feeder group in a station group. */
export const newMvFeederGroupInput = z.object({
  station_group_id: id,
  name: gridName(),
}).meta({ id: "NewMvFeederGroupInput" });
export type NewMvFeederGroupInput = z.output<typeof newMvFeederGroupInput>;

/** `POST /gsm/lv-groups`: an LV group in an MV feeder group. */
export const newLvGroupInput = z.object({
  mv_feeder_group_id: id,
  name: gridName(),
}).meta({ id: "NewLvGroupInput" });
export type NewLvGroupInput = z.output<typeof newLvGroupInput>;

/** The type-specific parameter rules of a feeder (spec 5), checked even when a field failed. */
function feederRules(
  feeder: { type?: unknown; in_out?: unknown; parameters?: unknown },
  ctx: z.RefinementCtx,
): void {
  // Runs whatever failed (`when`), so also on a body that is not an object at all.
  if (typeof feeder !== "object" || feeder === null) return;
  const type = feeder.type as FeederType;
  if (!(FEEDER_TYPES as readonly string[]).includes(type)) return;
  const parameters =
    (typeof feeder.parameters === "object" && feeder.parameters !== null
      ? feeder.parameters
      : {}) as Record<string, unknown>;
  const add = (path: (string | number)[], message: string, params?: Record<string, unknown>) =>
    ctx.addIssue({ code: "custom", path, message, ...(params ? { params } : {}) });
  for (const field of FEEDER_FIELDS[type]) {
    const result = numeric(field).safeParse(parameters[field.name]);
    const issue = result.error?.issues[0];
    if (issue) {
      const params = issue.code === "custom" ? issue.params : undefined;
      add(["parameters", field.name], issue.message, params);
    }
  }
  if (type === "TRANSFORMER") {
    if (!(VECTOR_GROUPS as readonly unknown[]).includes(parameters.vectorGroup)) {
      add(["parameters", "vectorGroup"], requiredChoice);
    }
    if (typeof parameters.mvVoltageEstimation !== "boolean") {
      add(["parameters", "mvVoltageEstimation"], requiredChoice);
    }
  }
  if (LINE_TYPES.includes(type) && parameters.meshed === true && feeder.in_out === "OUT") {
    add(["in_out"], "validation.meshedFeederAsInput");
  }
  const { minSoc, maxSoc } = parameters;
  if (
    type === "BATTERY" && typeof minSoc === "number" && typeof maxSoc === "number" &&
    minSoc >= maxSoc
  ) {
    add(["parameters", "maxSoc"], "validation.range", { min: 80, max: 100 });
  }
}

/**
 * A feeder as the setup calls receive it. `parameters` holds the type's fields (validation.ts
 * `FEEDER_FIELDS`; a transformer also `vectorGroup` and `mvVoltageEstimation`, a line `meshed`);
 * other keys are dropped.
 */
export const feederInput = z.object({
  name: gridName(),
  type: z.enum(FEEDER_TYPES, requiredChoice),
  in_out: z.enum(FEEDER_DIRECTIONS, requiredChoice),
  nominal_current_a: numeric(NOMINAL_CURRENT),
  parameters: z.record(z.string(), z.unknown()).catch(() => ({})),
}).superRefine(feederRules, { when: () => true }).transform((f) => ({
  ...f,
  parameters: feederParameters(f.type, f.parameters),
})).meta({ id: "FeederInput" });
export type FeederInput = z.output<typeof feederInput>;
/** What the web sends for a feeder. */
export type FeederBody = z.input<typeof feederInput>;

const electricalWorkInput = z.object({
  name: gridName(),
  type: z.enum(ELECTRICAL_WORK_TYPES, requiredChoice),
}).prefault(() => ({}) as never);

const nodeFields = {
  electrical_work: electricalWorkInput,
  latitude: coordinate(90),
  longitude: coordinate(180),
  /** Metres from the station; not below 0. */
  electrical_distance: z.number({ error: "validation.onlyNumbers" })
    .refine((v) => v >= 0, "validation.onlyNumbers").nullable().optional(),
  /** The node feeding this one, in the same LV group. */
  upstream_node_id: z.string({ error: requiredChoice }).max(200).nullable().optional(),
};

/** `POST /gsm/nodes`: a node (3-20 characters) with its electrical work and 1 to 6 feeders. */
export const newNodeInput = z.object({
  lv_group_id: id,
  name: gridName(NEW_NODE_NAME),
  ...nodeFields,
  feeders: z.array(feederInput, { error: requiredChoice })
    .refine((list) => list.length > 0, requiredChoice),
}).meta({ id: "NewNodeInput" });
export type NewNodeInput = z.output<typeof newNodeInput>;
/** What the web sends for a new node. */
export type NewNodeBody = z.input<typeof newNodeInput>;

/** `PUT /gsm/nodes/{id}`: the node and its electrical work (a new name: 3-20 characters). */
export const nodeUpdateInput = z.object({ name: gridName(), ...nodeFields })
  .meta({ id: "NodeUpdateInput" });
export type NodeUpdateInput = z.output<typeof nodeUpdateInput>;
/** What the web sends for a node change. */
export type NodeUpdateBody = z.input<typeof nodeUpdateInput>;

/** `PUT /gsm/mv-feeder-groups/{id}/mv-topology`: at least two distinct MV feeders, in order. */
export const mvTopologyInput = z.object({
  feeder_ids: z.array(z.string().max(200), { error: requiredChoice })
    .refine((ids) => ids.length >= 2 && new Set(ids).size === ids.length, requiredChoice),
}).meta({ id: "MvTopologyInput" });
export type MvTopologyInput = z.output<typeof mvTopologyInput>;

/** `GET /gsm/grid-structure/hv-mv-station-groups`: `view=visual-statistics` reshapes it. */
export const structureQuery = z.object({ view: z.string().max(40).optional() });

/** Search: at least 3 characters, at most 10 results (spec 9). */
export const SEARCH_MIN_CHARS = 3;
export const SEARCH_LIMIT = 10;

/** `GET /gsm/electrical-works/search?q=`. */
export const electricalWorksSearchQuery = z.object({
  q: z.string().max(200, "validation.maxChars").default("").transform((q) => q.trim())
    .refine((q) => q.length >= SEARCH_MIN_CHARS, "validation.atLeast3Chars"),
});

// ---- Answers -------------------------------------------------------------------------------

const named = { id: z.string(), name: z.string() };

/** A feeder as the API shows it. */
export const feederDto = z.object({
  ...named,
  slot: z.number(),
  type: z.enum(FEEDER_TYPES),
  in_out: z.enum(FEEDER_DIRECTIONS),
  nominal_current_a: z.number(),
  parameters: z.record(z.string(), z.unknown()),
}).meta({ id: "FeederDto" });
export type FeederDto = z.output<typeof feederDto>;

const electricalWorkDto = z.object({
  key: z.string(),
  name: z.string(),
  type: z.enum(ELECTRICAL_WORK_TYPES),
  latitude: z.number(),
  longitude: z.number(),
});

/** A node with its electrical work and feeders (spec 3 "Grid structure"). */
export const nodeDto = z.object({
  ...named,
  latitude: z.number(),
  longitude: z.number(),
  electrical_distance: z.number(),
  upstream_node_id: z.string().nullable(),
  electrical_work: electricalWorkDto,
  feeders: z.array(feederDto),
}).meta({ id: "NodeDto" });
export type NodeDto = z.output<typeof nodeDto>;

/** An LV group of the structure with its nodes. */
export const lvGroupDto = z.object({ ...named, nodes: z.array(nodeDto) }).meta({
  id: "LvGroupDto",
});
export type LvGroupDto = z.output<typeof lvGroupDto>;

/** An MV feeder group of the structure with its LV groups. */
export const mvFeederGroupDto = z.object({ ...named, lv_groups: z.array(lvGroupDto) })
  .meta({ id: "MvFeederGroupDto" });
export type MvFeederGroupDto = z.output<typeof mvFeederGroupDto>;

/** hv_mv_station_groups > mv_feeder_groups > lv_groups > nodes. */
export const stationGroupDto = z.object({
  ...named,
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  mv_feeder_groups: z.array(mvFeederGroupDto),
}).meta({ id: "StationGroupDto" });
export type StationGroupDto = z.output<typeof stationGroupDto>;

/** An electrical work of the visual-statistics view, its nodes at the work's coordinates. */
export const visualStatisticsWorkDto = electricalWorkDto.extend({
  nodes: z.array(nodeDto.omit({ electrical_work: true })),
}).meta({ id: "VisualStatisticsWork" });
export type VisualStatisticsWork = z.output<typeof visualStatisticsWorkDto>;

/** Spec 2.1: the station-group data reshaped for /visual-statistics. */
export const visualStatisticsViewDto = z.object({
  /** True when any node has an MV feeder (MV line, or transformer with MV estimation). */
  has_mv_feeders: z.boolean(),
  lv_groups: z.array(z.object({
    ...named,
    station_group: z.object(named),
    mv_feeder_group: z.object(named),
    electrical_works: z.array(visualStatisticsWorkDto),
  })),
}).meta({ id: "VisualStatisticsView" });
export type VisualStatisticsView = z.output<typeof visualStatisticsViewDto>;

/** The structure read: the tree, or with `view=visual-statistics` the reshaped view. */
export const structureAnswer = z.union([z.array(stationGroupDto), visualStatisticsViewDto]);

/** A station group as the setup calls answer it (without its children). */
export const stationGroupAnswer = stationGroupDto.omit({ mv_feeder_groups: true })
  .meta({ id: "StationGroupAnswer" });
export type StationGroupAnswer = z.output<typeof stationGroupAnswer>;

/** An MV feeder group as the setup calls answer it. */
export const mvFeederGroupAnswer = z.object({ ...named, station_group_id: z.string() })
  .meta({ id: "MvFeederGroupAnswer" });
export type MvFeederGroupAnswer = z.output<typeof mvFeederGroupAnswer>;

/** An LV group as the setup calls answer it. */
export const lvGroupAnswer = z.object({ ...named, mv_feeder_group_id: z.string() })
  .meta({ id: "LvGroupAnswer" });
export type LvGroupAnswer = z.output<typeof lvGroupAnswer>;

/** A node as the setup calls answer it: with its LV group. */
export const setupNodeDto = nodeDto.extend({ lv_group_id: z.string() }).meta({
  id: "SetupNodeDto",
});
export type SetupNodeDto = z.output<typeof setupNodeDto>;

/** A saved feeder, and whether the node's line mapping must be validated again (spec 4). */
export const feederChangeDto = z.object({
  feeder: feederDto,
  mapping_revalidation_required: z.boolean(),
}).meta({ id: "FeederChangeDto" });
export type FeederChangeDto = z.output<typeof feederChangeDto>;

/** A deleted node: its cells went back to 'waiting for configuration'. */
export const deletedNodeDto = z.object({ cellIds: z.array(z.string()) })
  .meta({ id: "DeletedNodeDto" });
export type DeletedNodeDto = z.output<typeof deletedNodeDto>;

/** The MV topology of an MV feeder group: its MV feeders in order. */
export const mvTopologyDto = z.object({
  mv_feeder_group_id: z.string(),
  sections: z.array(z.object({
    position: z.number(),
    feeder: feederDto,
    node: z.object(named),
  })),
}).meta({ id: "MvTopologyDto" });
export type MvTopologyDto = z.output<typeof mvTopologyDto>;

/** Metering states, worst first. */
export const METERING_STATES = ["DISCONNECTED", "NO_CELL", "UNMEASURED", "CONNECTED"] as const;
export type MeteringState = (typeof METERING_STATES)[number];

/** One electrical-work search result: the work, its node and its groups. */
export const electricalWorkHitDto = z.object({
  node_id: z.string(),
  node_name: z.string(),
  key: z.string(),
  name: z.string(),
  type: z.enum(ELECTRICAL_WORK_TYPES),
  latitude: z.number(),
  longitude: z.number(),
  lv_group: z.object(named),
  mv_feeder_group: z.object(named),
  station_group: z.object(named),
}).meta({ id: "ElectricalWorkHit" });
export type ElectricalWorkHit = z.output<typeof electricalWorkHitDto>;

/** The metering status of one electrical work. */
export const electricalWorkStatusDto = electricalWorkHitDto.extend({
  feeder_count: z.number(),
  /**
   * The voltage levels the work has values at: LV for every measured work, MV too for an MV
   * line or a transformer with MV estimation, MV only for an MV cabinet. Metering information
   * lists a work under the levels it names.
   */
  levels: z.array(z.enum(LEVELS)),
  state: z.enum(METERING_STATES),
  last_data_at: z.string().nullable(),
  cell: z.object({
    id: z.string(),
    serial_number: z.string(),
    status: z.string(),
    gps_fix: z.string().nullable(),
    gsm_signal: z.string().nullable(),
  }).nullable(),
}).meta({ id: "ElectricalWorkStatus" });
export type ElectricalWorkStatus = z.output<typeof electricalWorkStatusDto>;

/** `GET /gsm/electrical-works/status`: every electrical work with counts per state. */
export const electricalWorksStatusDto = z.object({
  electrical_works: z.array(electricalWorkStatusDto),
  counts: z.record(z.enum(METERING_STATES), z.number()),
  generated_at: z.string(),
}).meta({ id: "ElectricalWorksStatus" });
export type ElectricalWorksStatus = z.output<typeof electricalWorksStatusDto>;
