/** Integration events of power-quality events (consumed by notifications). */

/** A download ended (published for the notifications). */
export interface RecordingFinished {
  customerKey: string;
  userId: string;
  cellId: string;
  eventKey: string;
  eventStart: string;
  nodeName: string;
  ewName: string;
  status: "DOWNLOADED" | "FAILED";
  code: number | null;
}

declare module "../../kernel/events.ts" {
  interface EventMap {
    "voltageEvents.recordingFinished": RecordingFinished;
  }
}
