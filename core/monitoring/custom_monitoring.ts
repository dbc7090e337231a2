/**
 * Custom monitoring of fast current changes: start rules, trigger detection and the
 * read of a request's window, and the node history of the grid-monitoring screen. Re-exported
 * by `core/mod.ts`.
 */
export {
  checkStart,
  checkTriggerEnable,
  type CustomMonitoringLimits,
  DEFAULT_CUSTOM_LIMITS,
  endOf,
  isRunning,
  monthStart,
  type RequestKind,
  type RunningRequest,
  type StartCheck,
  type TriggerOutcome,
  triggerOutcome,
} from "./custom_rules.ts";
export {
  type CurrentPoint,
  type CurrentStep,
  currentSteps,
  VALUE_INTERVAL_MS,
} from "./custom_trigger.ts";
export { type RawSeries, readRawValues } from "./custom_values.ts";
// The node history of the grid-monitoring screen (its states use the grid status rules).
export { phaseState, STALE_MS } from "./grid_status.ts";
export {
  type GridSeries,
  NODE_PERIOD_MAX_DAYS,
  NODE_PERIOD_MIN_MS,
  type NodeValues,
  RAW_PERIOD_MAX_MS,
  readNodeValues,
  runStart,
  timeGrid,
} from "./node_values.ts";
