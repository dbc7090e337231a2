/**
 * Custom monitoring of fast current changes: durations, start rules, trigger detection and the
 * read of a request's window. Re-exported by `core/mod.ts`.
 */
export {
  AUTOMATIC_DURATIONS_MIN,
  isAllowedDuration,
  MANUAL_DURATIONS_MIN,
  type RequestKind,
} from "./custom_durations.ts";
export {
  checkStart,
  checkTriggerEnable,
  type CustomMonitoringLimits,
  DEFAULT_CUSTOM_LIMITS,
  endOf,
  isRunning,
  monthStart,
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
