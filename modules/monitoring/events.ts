/** Integration events of the monitoring module (consumed by notifications). */
import type { GridState } from "../../core/mod.ts";

/** A node's grid state changed between two evaluations. */
export interface NodeStateChanged {
  customerKey: string;
  nodeId: string;
  nodeName: string;
  electricalWorkName: string;
  level: "LV" | "MV";
  from: GridState;
  to: GridState;
  /** Set when an upstream outage explains the change (no separate alarm). */
  suppressedBy: string | null;
  at: string;
}

/**
 * An automatic trigger fired on a node (spec 2.7): STARTED with the request it started, or
 * FAILURE when another request was running (or a limit was reached; `code` says which).
 */
export interface CustomTriggerFired {
  customerKey: string;
  triggerId: string;
  nodeId: string;
  nodeName: string;
  electricalWorkName: string;
  /** The feeder and phase whose current changed first. */
  feederId: string;
  phase: "L1" | "L2" | "L3";
  level: "LV" | "MV";
  /** The absolute change between the two consecutive 20-s values, in A. */
  changeA: number;
  /** The trigger's delta for the level, in A. */
  deltaA: number;
  status: "STARTED" | "FAILURE";
  /** Catalogue code of the refusal (331, 333, 322, 323) when FAILURE. */
  code: number | null;
  requestId: string | null;
  /** Time of the value after the change. */
  at: string;
}

declare module "../../kernel/events.ts" {
  interface EventMap {
    "monitoring.nodeStateChanged": NodeStateChanged;
    "monitoring.customTriggerFired": CustomTriggerFired;
  }
}
