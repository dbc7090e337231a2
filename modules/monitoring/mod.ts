/**
 * @module
 * Monitoring (evm): live grid status per voltage level from the streaming core, with state
 * changes published as `monitoring.nodeStateChanged` events; custom monitoring of fast current
 * changes (manual requests, automatic triggers publishing `monitoring.customTriggerFired`).
 */
export type { CustomTriggerFired, NodeStateChanged } from "./events.ts";
export { type GridStatusDto, GridStatusService, type Level, nominalVoltage } from "./service.ts";
export { monitoringRoutes } from "./routes.ts";
export { isMvFeeder, TopologyCache } from "./topology.ts";
export {
  type CustomMonitoring,
  type CustomMonitoringDeps,
  startCustomMonitoring,
} from "./custom_monitoring.ts";
export type { RequestDto, RequestStatus } from "./custom_requests.ts";
export type { TriggerDto } from "./custom_triggers.ts";
export type { RequestValuesDto } from "./custom_window.ts";
