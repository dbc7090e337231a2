/** The grid-monitoring answers (docs/contracts.md "Grid status" and "Grid monitoring nodes"). */

export const GRID_STATES = [
  "OK",
  "UNDERVOLTAGE",
  "OVERVOLTAGE",
  "OVERCURRENT",
  "NO_DATA",
  "INTERRUPTION",
] as const;
export type GridState = (typeof GRID_STATES)[number];
export type Level = "LV" | "MV";
export type Phase = "L1" | "L2" | "L3" | "N";

export interface PhaseStatus {
  phase: "L1" | "L2" | "L3";
  u: number | null;
  i: number | null;
  state: GridState;
}

export interface NodeStatus {
  id: string;
  name: string;
  latitude: number;
  longitude: number;
  upstream_node_id: string | null;
  electrical_work: { name: string; type: string };
  state: GridState;
  suppressed_by: string | null;
  last_value_at: string | null;
  /** Absent in the summary view, which the screen loads (the node detail has them). */
  feeders?: {
    id: string;
    slot: number;
    name: string;
    type: string;
    state: GridState;
    phases: PhaseStatus[];
  }[];
}

type Tree<T> = { id: string; name: string; state: GridState } & T;

export interface GridStatus {
  level: Level;
  evaluated_at: string;
  has_mv_values: boolean;
  alarms: number;
  counts: Record<GridState, number>;
  station_groups: Tree<
    { mv_feeder_groups: Tree<{ lv_groups: Tree<{ nodes: NodeStatus[] }>[] }>[] }
  >[];
}

export interface NodeWarning {
  feeder_id: string;
  feeder_name: string;
  phase: "L1" | "L2" | "L3";
  state: Exclude<GridState, "OK">;
  since: string | null;
  since_earlier: boolean;
}

export interface NodeDetail {
  level: Level;
  evaluated_at: string;
  id: string;
  name: string;
  latitude: number;
  longitude: number;
  upstream_node_id: string | null;
  electrical_work: { name: string; type: string };
  station_group: { id: string; name: string };
  mv_feeder_group: { id: string; name: string };
  lv_group: { id: string; name: string };
  state: GridState;
  suppressed_by: { id: string; name: string | null } | null;
  last_value_at: string | null;
  limits: {
    nominal_voltage_v: number;
    undervoltage_v: number;
    overvoltage_v: number;
    overcurrent_pct: number;
  };
  feeders: {
    id: string;
    slot: number;
    name: string;
    type: string;
    nominal_current_a: number;
    overcurrent_a: number;
    state: GridState;
    phases: {
      phase: Phase;
      u: number | null;
      i: number | null;
      state: GridState | null;
      last_value_at: string | null;
    }[];
  }[];
  warnings: NodeWarning[];
}

export interface NodeValues {
  node_id: string;
  level: Level;
  from: string;
  to: string;
  resolution: "20s" | "10min";
  step_s: number;
  times: number[];
  feeders: {
    id: string;
    slot: number;
    name: string;
    phases: { phase: Phase; u: (number | null)[]; i: (number | null)[] }[];
  }[];
}

export type RequestStatus = "RUNNING" | "STOPPED" | "FINISHED";

export interface CustomRequest {
  id: string;
  node_id: string;
  feeder_id: string | null;
  kind: "MANUAL" | "AUTOMATIC";
  trigger_id: string | null;
  duration_min: number | null;
  started_at: string;
  ends_at: string | null;
  stopped_at: string | null;
  status: RequestStatus;
}

export interface RequestValues {
  request_id: string;
  from: string;
  to: string;
  feeders: {
    id: string;
    name: string;
    level: Level;
    phases: { phase: Phase; t: number[]; u: (number | null)[]; i: (number | null)[] }[];
  }[];
}

export interface Trigger {
  id: string;
  node_id: string | null;
  delta_lv_a: number;
  delta_mv_a: number;
  duration_min: number;
  enabled: boolean;
  last_fire: {
    at: string;
    status: "STARTED" | "FAILURE";
    code: number | null;
    request_id: string | null;
  } | null;
}

/** Spec 9: custom monitoring durations in minutes. */
const range = (from: number, to: number, step: number) =>
  Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, k) => from + k * step);
export const AUTOMATIC_DURATIONS: readonly number[] = [...range(1, 5, 1), ...range(10, 60, 10)];
export const MANUAL_DURATIONS: readonly number[] = [
  ...AUTOMATIC_DURATIONS,
  ...range(120, 1440, 60),
];
