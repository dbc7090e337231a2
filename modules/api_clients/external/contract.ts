/**
 * The external_v1 contract: paging, the RFC 9457 problem body, and the answers of gsm and fm
 * that are not the grid's own (the grid structure reuses the grid contract's schemas). Pure:
 * imports only zod and the grid's contract.
 */
import { z } from "zod";

/** The external API's version, path segment and document version. */
export const EXTERNAL_VERSION = "external_v1";

/** Uniform paging of lists: `page` from 1, `page_size` 1 to 500 (100 by default). */
export const PAGE_SIZE = Object.freeze({ default: 100, max: 500 });

const digits = (max: number) =>
  z.string().regex(/^\d{1,9}$/).transform(Number).pipe(
    z.number().int().min(1).max(max),
  );

/** `?page=&page_size=` of every list. */
export const pageQuery = z.strictObject({
  page: digits(1_000_000).optional(),
  page_size: digits(PAGE_SIZE.max).optional(),
});
export type PageQuery = z.output<typeof pageQuery>;

/** One page of a list. */
export function pageOf<T extends z.ZodType>(item: T, id: string) {
  return z.object({
    items: z.array(item),
    page: z.number().int(),
    page_size: z.number().int(),
    total: z.number().int(),
  }).meta({ id });
}

/** RFC 9457 problem details with the catalogue's code, key and params. */
export const problemDetails = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  instance: z.string().optional(),
  code: z.number().int().optional(),
  key: z.string(),
  params: z.record(z.string(), z.unknown()),
}).meta({ id: "ProblemDetails" });
export type ProblemDetails = z.output<typeof problemDetails>;

/** Where a cell is placed (gsm). */
export const cellPlacementDto = z.object({
  id: z.string(),
  serial_number: z.string(),
  /** IN_STOCK, WAITING_FOR_INSTALLATION or INSTALLED. */
  type: z.string(),
  node_id: z.string().nullable(),
}).meta({ id: "CellPlacement" });
export const cellPlacementPageDto = pageOf(cellPlacementDto, "CellPlacementPage");

/** The phases a probe of a cell can carry. */
export const FM_PHASES = ["L1", "L2", "L3", "N"] as const;
/** The setup screen's mapping statuses. */
export const FM_MAPPING_STATUSES = ["TO_BE_CONFIGURED", "IN_PROGRESS", "CONFIGURED"] as const;

/**
 * A cell's placement and line mapping (fm): whether it is linked to a node, which phases of
 * each of the node's feeders are mapped to a probe (L1, then L2, L3 or N), whether every feeder
 * has its L1, whether the cell applied the current mapping, and the setup screen's status.
 */
export const fleetMappingDto = z.object({
  status: z.enum(FM_MAPPING_STATUSES),
  placed: z.boolean(),
  node_id: z.string().nullable(),
  complete: z.boolean(),
  synchronized: z.boolean(),
  feeders: z.array(z.object({
    feeder_id: z.string(),
    slot: z.number().int(),
    name: z.string(),
    phases: z.array(z.object({ phase: z.enum(FM_PHASES), probe: z.number().int() })),
  })),
}).meta({ id: "FleetMapping" });

/** A cell as fleet management (fm) shows it. */
export const fleetCellDto = z.object({
  id: z.string(),
  serial_number: z.string(),
  type: z.string(),
  /** The cell's state (online, offline, ...). */
  status: z.string(),
  node_id: z.string().nullable(),
  revoked: z.boolean(),
  gsm_signal: z.string().nullable(),
  gps_fix: z.string().nullable(),
  firmware: z.string().nullable(),
  last_contact: z.string().nullable(),
  provisioning_date: z.string(),
  mapping: fleetMappingDto,
}).meta({ id: "FleetCell" });
export type FleetCellDto = z.output<typeof fleetCellDto>;
export const fleetCellPageDto = pageOf(fleetCellDto, "FleetCellPage");

/** `{id}` of a single cell. */
export const cellIdParam = z.strictObject({ id: z.string().min(1).max(64) });

/** A page of `items` (1-based `page`). */
export function paginate<T>(items: readonly T[], query: PageQuery) {
  const page = query.page ?? 1;
  const size = query.page_size ?? PAGE_SIZE.default;
  return {
    items: items.slice((page - 1) * size, page * size),
    page,
    page_size: size,
    total: items.length,
  };
}

/** The levels of dm: 20-s values, 10-minute, hourly and daily aggregates. */
export const DM_RESOLUTIONS = ["20s", "10min", "1h", "1d"] as const;
export type DmResolution = (typeof DM_RESOLUTIONS)[number];
/** The phases of a feeder (N: current only). */
export const DM_PHASES = ["L1", "L2", "L3", "N"] as const;
/** Rows per page of a dm answer: 1 to 10,000 (1,000 by default). */
export const DM_PAGE_SIZE = Object.freeze({ default: 1000, max: 10_000 });

/** `GET /external/v1/dm/feeders/{id}/values`. */
export const dmValuesQuery = z.strictObject({
  /** ISO instants; the period rules of the data codes (401-403) apply. */
  from: z.string().max(64),
  to: z.string().max(64),
  resolution: z.enum(DM_RESOLUTIONS).default("10min"),
  phase: z.enum(DM_PHASES).optional(),
  format: z.enum(["json", "csv"]).default("json"),
  page: digits(1_000_000).optional(),
  page_size: digits(DM_PAGE_SIZE.max).optional(),
});
export type DmValuesQuery = z.output<typeof dmValuesQuery>;

/** `{id}` of a feeder. */
export const feederIdParam = z.strictObject({ id: z.string().min(1).max(64) });

/**
 * One row of values: a 20-s measurement, or an aggregate (u and i are RMS values with their
 * minimum and maximum, p, q, pf and f means; `n` the 20-s values behind it).
 */
export const dmRowDto = z.object({
  ts: z.string(),
  phase: z.enum(DM_PHASES),
  u: z.number().nullable(),
  i: z.number().nullable(),
  p: z.number().nullable(),
  q: z.number().nullable(),
  pf: z.number().nullable(),
  thd_u: z.number().nullable(),
  thd_i: z.number().nullable(),
  f: z.number().nullable(),
  u_min: z.number().nullable().optional(),
  u_max: z.number().nullable().optional(),
  i_min: z.number().nullable().optional(),
  i_max: z.number().nullable().optional(),
  n: z.number().int().optional(),
}).meta({ id: "DmRow" });
export type DmRowDto = z.output<typeof dmRowDto>;

/** A page of a feeder's values for a period. */
export const dmValuesPageDto = z.object({
  feeder_id: z.string(),
  resolution: z.enum(DM_RESOLUTIONS),
  from: z.string(),
  to: z.string(),
  items: z.array(dmRowDto),
  page: z.number().int(),
  page_size: z.number().int(),
  total: z.number().int(),
}).meta({ id: "DmValuesPage" });
export type DmValuesPageDto = z.output<typeof dmValuesPageDto>;

/** A measured feeder: where its values come from. */
export const dmFeederDto = z.object({
  id: z.string(),
  name: z.string(),
  node_id: z.string(),
  node_name: z.string(),
  slot: z.number().int(),
  cell_id: z.string().nullable(),
}).meta({ id: "DmFeeder" });
export const dmFeederPageDto = pageOf(dmFeederDto, "DmFeederPage");

/** The newest 20-s values of a feeder per phase (voltage and current). */
export const dmLatestDto = z.object({
  feeder_id: z.string(),
  phases: z.array(z.object({
    phase: z.enum(DM_PHASES),
    ts: z.string().nullable(),
    u: z.number().nullable(),
    i: z.number().nullable(),
  })),
}).meta({ id: "DmLatest" });
export type DmLatestDto = z.output<typeof dmLatestDto>;

/** One measurement of a third-party meter: the cell protocol's fields, without the feeder. */
export const dmMeasurementInput = z.object({
  ts: z.string().max(64),
  phase: z.enum(DM_PHASES),
  u: z.number().optional(),
  i: z.number().optional(),
  p: z.number().optional(),
  q: z.number().optional(),
  pf: z.number().optional(),
  thd_u: z.number().optional(),
  thd_i: z.number().optional(),
  f: z.number().optional(),
}).strict();

/**
 * `POST /external/v1/dm/feeders/{id}/measurements`: a batch of a third-party meter, checked and
 * deduplicated as a cell's (docs/ingestion-protocol.md); `batch_id` names it in the logs.
 */
export const dmWriteInput = z.strictObject({
  batch_id: z.string().min(1).max(64),
  measurements: z.array(dmMeasurementInput).min(1).max(5000),
});
export type DmWriteInput = z.output<typeof dmWriteInput>;

/** The answer of a write: stored, already stored before, refused per record. */
export const dmWriteResultDto = z.object({
  accepted: z.number().int(),
  duplicates: z.number().int(),
  rejected: z.array(z.object({
    section: z.string(),
    index: z.number().int(),
    field: z.string(),
    key: z.string(),
  })),
}).meta({ id: "DmWriteResult" });
export type DmWriteResultDto = z.output<typeof dmWriteResultDto>;
