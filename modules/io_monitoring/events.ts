/** Integration events of IO monitoring (consumed by notifications). */

/** A digital input or output of an active I/O module changed its state (docs/contracts.md). */
export interface IoStateChanged {
  customerKey: string;
  cellId: string;
  nodeId: string;
  nodeName: string;
  electricalWorkKey: string;
  electricalWorkName: string;
  /** The module's slot on the cell (the protocol's module number). */
  slot: number;
  moduleName: string;
  moduleType: "DIGITAL_INPUT" | "DIGITAL_OUTPUT";
  channel: number;
  value: 0 | 1;
  previous: 0 | 1;
  /** Time of the first value of the new state. */
  at: string;
}

declare module "../../kernel/events.ts" {
  interface EventMap {
    "io.stateChanged": IoStateChanged;
  }
}
