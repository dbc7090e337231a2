/**
 * The power-quality events contract (pqe): the electrical works whose nodes record voltage
 * events, the events list (per node or the whole grid, 12 per page, filters), an event's detail
 * with its RMS trace and EN 50160 table cell, the EN 50160 dip and swell tables with counts per
 * cell, the magnitude-duration points, and the recordings a cell uploads on request. Shared with
 * the web app (types with `import type`). Pure: imports only zod and the tolerance curves
 * (curves/contract.ts).
 */
import { z } from "zod";
import { CURVES } from "./curves/contract.ts";

// ---- tolerance curves (curves/contract.ts) ----
export { CURVES, insideCurve, ITIC_LOWER, ITIC_UPPER, SEMI_F47 } from "./curves/contract.ts";
export type { Curve, CurvePoint } from "./curves/contract.ts";

/** Spec 9: PQ history and node events lists show 12 per page. */
export const EVENTS_PAGE_SIZE = 12;
/** Most points the magnitude-duration plot draws (the newest first). */
export const MAX_PLOT_POINTS = 5_000;

/** Event types of spec 3 ("PQ event"): the filter and the list's type column. */
export const EVENT_TYPES = ["DIP", "SWELL", "RVC", "INTERRUPTION", "MSV"] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** What the platform classified an event as (EN 50160; core/events). */
export const EVENT_KINDS = [
  "DIP",
  "SWELL",
  "INTERRUPTION_SHORT",
  "INTERRUPTION_LONG",
  "RVC",
  "MSV",
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export const EVENT_PHASES = ["L1", "L2", "L3"] as const;
export type EventPhase = (typeof EVENT_PHASES)[number];

/** EN 50160 table 8 (dips): residual-voltage rows, deepest last, and duration columns. */
export const DIP_ROW_IDS = ["90-80", "80-70", "70-40", "40-5", "<5"] as const;
export const DIP_COLUMN_IDS = ["10-200ms", "0.2-0.5s", "0.5-1s", "1-5s", "5-60s"] as const;
/** EN 50160 table 9 (swells). */
export const SWELL_ROW_IDS = [">=120", "120-110"] as const;
export const SWELL_COLUMN_IDS = ["10-500ms", "0.5-5s", "5-60s"] as const;

/** Download states of a recording (spec 3 "download status"). */
export const RECORDING_STATUSES = ["REQUESTED", "DOWNLOADING", "DOWNLOADED", "FAILED"] as const;
export type RecordingStatus = (typeof RECORDING_STATUSES)[number];

/** Catalogue codes a failed download carries (spec 8.2) and their message keys. */
export const RECORDING_FAILURES = {
  515: "pq.cellFilesNotFound",
  516: "pq.cellFilesError",
  518: "pq.downloadTimeout",
  521: "pq.dataFilesCorrupted",
} as const;

/** Which side of a tolerance curve the list keeps. */
export const CURVE_SIDES = ["INSIDE", "OUTSIDE"] as const;
export type CurveSide = (typeof CURVE_SIDES)[number];

/** The file formats of a recording download. */
export const RECORDING_FORMATS = ["comtrade-ascii", "comtrade-binary", "csv"] as const;
export type RecordingFormat = (typeof RECORDING_FORMATS)[number];

// ---- answers ----

/** An EN 50160 table cell: `table` DIP or SWELL, row and column ids of the lists above. */
export const tableCellDto = z.object({
  table: z.enum(["DIP", "SWELL"]),
  row: z.string(),
  column: z.string(),
}).meta({ id: "PqeTableCellDto" });
export type TableCellDto = z.output<typeof tableCellDto>;

/** The download state of an event's recording. */
export const recordingStateDto = z.object({
  status: z.enum(RECORDING_STATUSES),
  /** 515, 516, 518 or 521 when FAILED. */
  code: z.number().nullable(),
  requested_at: z.string(),
  updated_at: z.string(),
}).meta({ id: "PqeRecordingStateDto" });
export type RecordingStateDto = z.output<typeof recordingStateDto>;

/** An event of the list (spec 3 "PQ event"). */
export const eventDto = z.object({
  /** Opaque and URL-safe: names the cell and the cell's event id. */
  key: z.string(),
  event_id: z.string(),
  cell_id: z.string(),
  node_id: z.string(),
  node_name: z.string(),
  ew_name: z.string(),
  type: z.enum(EVENT_TYPES),
  kind: z.enum(EVENT_KINDS),
  start: z.string(),
  end: z.string(),
  duration_ms: z.number(),
  start_phase: z.enum(EVENT_PHASES).nullable(),
  end_phase: z.enum(EVENT_PHASES).nullable(),
  /** Residual (dip, interruption) or peak (swell) voltage in % of Uref. */
  extreme_pct: z.number().nullable(),
  /** Voltage change in % of Udin (RVC), else as the cell sent it. */
  delta_u_pct: z.number().nullable(),
  /** How far the extreme is from Uref: 100 - residual for a dip, peak - 100 for a swell. */
  depth_pct: z.number().nullable(),
  table_cell: tableCellDto.nullable(),
  recording: recordingStateDto.nullable(),
}).meta({ id: "PqeEventDto" });
export type EventDto = z.output<typeof eventDto>;

/** One page of events. */
export const eventPageDto = z.object({
  events: z.array(eventDto),
  page: z.number(),
  page_size: z.number(),
  total: z.number(),
}).meta({ id: "PqeEventPageDto" });
export type EventPageDto = z.output<typeof eventPageDto>;

/** An event with its RMS trace (Urms(1/2) in % of Uref as the cell sent it). */
export const eventDetailDto = z.object({
  event: eventDto,
  trace: z.object({
    /** Time of the first value (the trace starts before the event). */
    start: z.string(),
    interval_ms: z.number(),
    values_pct: z.array(z.number()),
  }).nullable(),
  /** The electrical work's nominal phase voltage in V (for the chart's volts axis). */
  nominal_voltage: z.number(),
}).meta({ id: "PqeEventDetailDto" });
export type EventDetailDto = z.output<typeof eventDetailDto>;

/** A node of an electrical work with its event counts of the last 30 days. */
export const eventNodeDto = z.object({
  id: z.string(),
  name: z.string(),
  cell_id: z.string().nullable(),
  events_30d: z.number(),
  last_event: z.string().nullable(),
}).meta({ id: "PqeNodeDto" });

/** `GET /pqe/electrical-works` (spec 7): electrical works and their nodes. */
export const eventWorksDto = z.object({
  electrical_works: z.array(
    z.object({
      key: z.string(),
      name: z.string(),
      type: z.string(),
      lv_group: z.string(),
      nodes: z.array(eventNodeDto),
    }).meta({ id: "PqeElectricalWorkDto" }),
  ),
}).meta({ id: "PqeElectricalWorksDto" });
export type EventWorksDto = z.output<typeof eventWorksDto>;

/** Counts per EN 50160 table cell, plus events outside the tables. */
export const eventTablesDto = z.object({
  /** `dip[row][column]` counts, rows and columns as DIP_ROW_IDS x DIP_COLUMN_IDS. */
  dip: z.record(z.string(), z.record(z.string(), z.number())),
  swell: z.record(z.string(), z.record(z.string(), z.number())),
  interruptions_short: z.number(),
  interruptions_long: z.number(),
  /** Dips and swells longer than the tables (60 s). */
  outside_tables: z.number(),
  rvc: z.number(),
  msv: z.number(),
}).meta({ id: "PqeEventTablesDto" });
export type EventTablesDto = z.output<typeof eventTablesDto>;

/** A point of the magnitude-duration plot. */
export const eventPointDto = z.object({
  key: z.string(),
  kind: z.enum(EVENT_KINDS),
  duration_ms: z.number(),
  extreme_pct: z.number(),
}).meta({ id: "PqeEventPointDto" });

/** Points of the magnitude-duration plot (dips, swells, interruptions with an extreme). */
export const eventPointsDto = z.object({
  points: z.array(eventPointDto),
  /** More events matched than MAX_PLOT_POINTS: the newest are drawn. */
  truncated: z.boolean(),
}).meta({ id: "PqeEventPointsDto" });
export type EventPointsDto = z.output<typeof eventPointsDto>;

/** A downloaded (or requested) recording of #events-downloaded. */
export const recordingDto = z.object({
  event: eventDto,
  requested_by: z.string(),
  size_bytes: z.number().nullable(),
}).meta({ id: "PqeRecordingDto" });

/** One page of recordings. */
export const recordingPageDto = z.object({
  recordings: z.array(recordingDto),
  page: z.number(),
  page_size: z.number(),
  total: z.number(),
}).meta({ id: "PqeRecordingPageDto" });
export type RecordingPageDto = z.output<typeof recordingPageDto>;

/** A node's event in a grid event. */
export const gridEventNodeDto = z.object({
  key: z.string(),
  node_id: z.string(),
  node_name: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  kind: z.enum(EVENT_KINDS),
  start: z.string(),
  depth_pct: z.number().nullable(),
}).meta({ id: "PqeGridEventNodeDto" });

/** Events of different cells within one second: one grid event (beyond the spec). */
export const gridEventDto = z.object({
  start: z.string(),
  /** MV: every measured node of one MV feeder group saw it; LOCAL otherwise. */
  origin: z.enum(["MV", "LOCAL"]),
  mv_feeder_group: z.string().nullable(),
  nodes: z.array(gridEventNodeDto),
}).meta({ id: "PqeGridEventDto" });
export type GridEventDto = z.output<typeof gridEventDto>;

/** One page of grid events, newest first. */
export const gridEventPageDto = z.object({
  grid_events: z.array(gridEventDto),
  page: z.number(),
  page_size: z.number(),
  total: z.number(),
}).meta({ id: "PqeGridEventPageDto" });
export type GridEventPageDto = z.output<typeof gridEventPageDto>;

// ---- inputs ----

const isoTime = z.iso.datetime({ offset: true });
const pct = z.coerce.number().min(0).max(200);

/** The filters' fields, shared by the list, the tables and the plot. */
const filterFields = {
  /** One node; absent: the whole grid. */
  node: z.string().regex(/^[\w-]{1,64}$/, "validation.invalidValue").optional(),
  type: z.enum(EVENT_TYPES).optional(),
  phase: z.enum(EVENT_PHASES).optional(),
  from: isoTime.optional(),
  to: isoTime.optional(),
  /** Depth in % of Uref (see EventDto.depth_pct). */
  depth_min: pct.optional(),
  depth_max: pct.optional(),
  duration_min_ms: z.coerce.number().int().min(0).max(31_536_000_000).optional(),
  duration_max_ms: z.coerce.number().int().min(0).max(31_536_000_000).optional(),
  curve: z.enum(CURVES).optional(),
  /** With `curve`: keep the events inside or outside it (default OUTSIDE). */
  side: z.enum(CURVE_SIDES).optional(),
};

type FilterFields = { [K in keyof typeof filterFields]: z.output<(typeof filterFields)[K]> };

/** Field errors of a filter's ranges (also run by the web form): `{path, key}` pairs. */
export function filterProblems(q: Partial<FilterFields>): { path: string; key: string }[] {
  const out: { path: string; key: string }[] = [];
  if (q.from && q.to && Date.parse(q.from) >= Date.parse(q.to)) {
    out.push({ path: "to", key: "validation.endBeforeStart" });
  }
  if (q.depth_min !== undefined && q.depth_max !== undefined && q.depth_min > q.depth_max) {
    out.push({ path: "depth_max", key: "validation.maxBelowMin" });
  }
  if (
    q.duration_min_ms !== undefined && q.duration_max_ms !== undefined &&
    q.duration_min_ms > q.duration_max_ms
  ) {
    out.push({ path: "duration_max_ms", key: "validation.maxBelowMin" });
  }
  return out;
}

const checkFilter = (q: Partial<FilterFields>, ctx: z.RefinementCtx) => {
  for (const p of filterProblems(q)) {
    ctx.addIssue({ code: "custom", path: [p.path], message: p.key });
  }
};

/** Filters shared by the list, the tables and the plot. */
export const eventFilterQuery = z.object(filterFields).superRefine(checkFilter);
export type EventFilter = z.output<typeof eventFilterQuery>;

/** The filters beside other query fields (another API's paging), any unknown field refused. */
export const strictEventFilter = <T extends z.ZodRawShape>(extra: T) =>
  z.strictObject({ ...filterFields, ...extra }).superRefine((q, ctx) =>
    checkFilter(q as Partial<FilterFields>, ctx)
  );

/** `GET /pqe/events`: the filters and a 1-based page. */
export const eventListQuery = z.object({
  ...filterFields,
  page: z.coerce.number().int().min(1).max(100_000).optional(),
}).superRefine(checkFilter);
export type EventListQuery = z.output<typeof eventListQuery>;

/** `GET /pqe/recordings`. */
export const recordingListQuery = z.object({
  status: z.enum(RECORDING_STATUSES).optional(),
  page: z.coerce.number().int().min(1).max(100_000).optional(),
});
export type RecordingListQuery = z.output<typeof recordingListQuery>;

/** `GET /pqe/events/{key}/recording`: the file format. */
export const recordingFileQuery = z.object({
  format: z.enum(RECORDING_FORMATS).optional(),
});

/** `GET /pqe/grid-events`: a period (default the last 30 days) and a 1-based page. */
export const gridEventsQuery = z.object({
  from: isoTime.optional(),
  to: isoTime.optional(),
  page: z.coerce.number().int().min(1).max(100_000).optional(),
}).superRefine(checkFilter);
export type GridEventsQuery = z.output<typeof gridEventsQuery>;
