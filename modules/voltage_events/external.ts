/**
 * The voltage events as the external API (external_v1 pq, modules/api_clients) reads them: the
 * screens' filters, detail, recording request and download (the same rules, 404s and codes
 * 515/516/518/521 of a failed download), with any page size instead of the screens' 12 and the
 * requester named by the caller (an API client is no user).
 */
import { type Analytics, eventPage } from "./analytics.ts";
import type {
  EventDetailDto,
  EventDto,
  EventFilter,
  RecordingFormat,
  RecordingStatus,
} from "./contract.ts";
import { recordingBaseName, recordingCsv, recordingZip } from "./recording_files.ts";
import type { RecordingsService } from "./recordings.ts";
import type { VoltageEventsService } from "./service.ts";

/** A downloaded recording as a file. */
export interface RecordingDownload {
  name: string;
  contentType: string;
  body: Uint8Array | string;
}

/** What the external API may do with a customer's events. */
export interface ExternalEvents {
  /** Newest first, like the screen's list. */
  page(
    customerKey: string,
    filter: EventFilter,
    offset: number,
    limit: number,
  ): Promise<{ items: EventDto[]; total: number }>;
  detail(customerKey: string, key: string): Promise<EventDetailDto>;
  /** Asks the cell for the recording; `requestedBy` names the caller (`api-client:<id>`). */
  requestRecording(customerKey: string, key: string, requestedBy: string): Promise<RecordingStatus>;
  /** The downloaded recording (404 while it is not downloaded). */
  recording(customerKey: string, key: string, format: RecordingFormat): Promise<RecordingDownload>;
}

/** The facade over the module's services. */
export function externalEvents(
  service: VoltageEventsService,
  recordings: RecordingsService,
  analytics: Analytics,
): ExternalEvents {
  return {
    async page(customerKey, filter, offset, limit) {
      const places = await service.places(customerKey);
      const cells = filter.node
        ? [...places.values()].filter((p) => p.nodeId === filter.node).map((p) => p.cellId)
        : [...places.keys()];
      const { rows, total } = await eventPage(analytics, cells, filter, offset, limit);
      const states = await service.recordingStates(rows);
      const items = rows.map((r) =>
        service.dto(r, places.get(r.cellId)!, states.get(`${r.cellId}|${r.eventId}`) ?? null)
      );
      return { items, total };
    },
    detail: (customerKey, key) => service.detail(customerKey, key),
    requestRecording: (customerKey, key, by) => recordings.request(customerKey, key, by),
    async recording(customerKey, key, format) {
      const { event, place, file } = await recordings.file(customerKey, key);
      const base = recordingBaseName(event.cellId, event.startMs);
      if (format === "csv") {
        return { name: `${base}.csv`, contentType: "text/csv", body: recordingCsv(file) };
      }
      const binary = format === "comtrade-binary" ? "BINARY" : "ASCII";
      return {
        name: `${base}.zip`,
        contentType: "application/zip",
        body: recordingZip(file, place, event.startMs, binary),
      };
    },
  };
}
