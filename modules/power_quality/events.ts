/** Integration events of power-quality reports (consumed by notifications). */

/** A report ended: completed (with its result), failed or cancelled (docs/contracts.md). */
export interface ReportFinished {
  customerKey: string;
  reportKey: string;
  reportName: string;
  nodeId: string;
  nodeName: string;
  electricalWorkName: string;
  /** DONE when completed (ready for download), else FAILED or CANCELLED (spec 2.3). */
  state: "DONE" | "FAILED" | "CANCELLED";
  /** PASSED / NOT_PASSED when completed, else the failure's catalogue key. */
  status: string;
  /** The report period's start. */
  start: string;
  at: string;
}

declare module "../../kernel/events.ts" {
  interface EventMap {
    "pq.reportFinished": ReportFinished;
  }
}
