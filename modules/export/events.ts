/** Integration events of data export (consumed by notifications). */

/** An export ended: DONE (ready to download), or FAILED / CANCELLED (docs/contracts.md). */
export interface ExportEnded {
  customerKey: string;
  /** The user who started it (only they are notified). */
  userId: string;
  exportKey: string;
  fileName: string;
  state: "DONE" | "FAILED" | "CANCELLED";
  at: string;
}

declare module "../../kernel/events.ts" {
  interface EventMap {
    "export.ended": ExportEnded;
  }
}
