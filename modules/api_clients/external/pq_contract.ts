/**
 * external_v1 pq: the queries and answers of reports and events. The bodies and items are the
 * power-quality modules' own schemas (re-exported by this module's contract); only the paging
 * is the external API's (`page`, `page_size`, `{ items, page, page_size, total }`).
 */
import { z } from "zod";
import {
  eventDto,
  RECORDING_FORMATS,
  recordingStateDto,
  REPORT_RESULTS,
  REPORT_STATUSES,
  reportDto,
  strictEventFilter,
} from "../contract.ts";
import { PAGE_SIZE, pageOf } from "./contract.ts";

const digits = (max: number) =>
  z.string().regex(/^\d{1,9}$/).transform(Number).pipe(z.number().int().min(1).max(max));

const paging = {
  page: digits(1_000_000).optional(),
  page_size: digits(PAGE_SIZE.max).optional(),
};

/** `GET /external/v1/pq/reports`: paging and the screen's filters. */
export const pqReportsQuery = z.strictObject({
  ...paging,
  status: z.enum(REPORT_STATUSES).optional(),
  result: z.enum(REPORT_RESULTS).optional(),
  node: z.string().min(1).max(64).optional(),
});
export type PqReportsQuery = z.output<typeof pqReportsQuery>;

/**
 * `GET /external/v1/pq/events`: paging and the events screen's filters (and their rules); an
 * unknown parameter is refused like on the other lists.
 */
export const pqEventsQuery = strictEventFilter(paging);
export type PqEventsQuery = z.output<typeof pqEventsQuery>;

/** `{key}` of a report or an event. */
export const pqKeyParam = z.strictObject({ key: z.string().min(1).max(200) });

/** `GET /external/v1/pq/events/{key}/recording?format=`. */
export const pqRecordingQuery = z.strictObject({
  format: z.enum(RECORDING_FORMATS).default("comtrade-ascii"),
});

export const pqReportPageDto = pageOf(reportDto, "PqReportPage");
export const pqEventPageDto = pageOf(eventDto, "PqEventPage");
/** The answer of a recording request: the download's state. */
export const pqRecordingRequestedDto = recordingStateDto.pick({ status: true }).meta({
  id: "PqRecordingRequested",
});
