/**
 * The grid-monitoring answers under the names the screen uses; the shapes are the server's
 * (modules/monitoring/contract.ts), never copied.
 */
export {
  AUTOMATIC_DURATIONS,
  GRID_STATES,
  MANUAL_DURATIONS,
} from "../../../../modules/monitoring/contract.ts";
export type {
  GridState,
  GridStatusDto as GridStatus,
  Level,
  NodeDetailDto as NodeDetail,
  NodeStatusDto as NodeStatus,
  NodeValuesDto as NodeValues,
  NodeWarningDto as NodeWarning,
  Phase,
  PhaseStatusDto as PhaseStatus,
  RequestDto as CustomRequest,
  RequestStatus,
  RequestValuesDto as RequestValues,
  TriggerDto as Trigger,
} from "../../../../modules/monitoring/contract.ts";
