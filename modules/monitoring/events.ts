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

declare module "../kernel/events.ts" {
  interface EventMap {
    "monitoring.nodeStateChanged": NodeStateChanged;
  }
}
