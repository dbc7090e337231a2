/** Integration events of the SCADA connector (consumed by notifications). */

/** A master connected or disconnected, or a profile could not listen (docs/contracts.md). */
export interface ScadaConnectionChanged {
  customerKey: string;
  profileId: string;
  profileName: string;
  /** CONNECTED, DISCONNECTED, or LISTEN_FAILED (the port is in use or not allowed). */
  state: "CONNECTED" | "DISCONNECTED" | "LISTEN_FAILED";
  /** The master's address (CONNECTED, DISCONNECTED) or the port (LISTEN_FAILED). */
  address: string;
  /** Why it disconnected or failed (empty when the master closed normally). */
  reason: string;
  at: string;
}

declare module "../../kernel/events.ts" {
  interface EventMap {
    "scada.connectionChanged": ScadaConnectionChanged;
  }
}
