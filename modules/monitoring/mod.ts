/**
 * @module
 * Monitoring (evm): live grid status per voltage level from the streaming core, with state
 * changes published as `monitoring.nodeStateChanged` events.
 */
export type { NodeStateChanged } from "./events.ts";
export { type GridStatusDto, GridStatusService, type Level, nominalVoltage } from "./service.ts";
export { monitoringRoutes } from "./routes.ts";
export { isMvFeeder, TopologyCache } from "./topology.ts";
