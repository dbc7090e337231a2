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
