/**
 * external_v1 under `/external/v1`: gsm (the grid structure and the cells' placement) and fm
 * (fleet management: the cells' state, signal, GPS, firmware and last contact), every answer
 * scoped to the client's customer; errors as RFC 9457 problem details; the OpenAPI document.
 */
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { type AppEnv, AppError, doc, type TenantDirectory, validate } from "../../../kernel/mod.ts";
import {
  allNodes,
  type CellMappingState,
  cellMappingStates,
  type CellsService,
  type GridSetupService,
  readStructure,
} from "../../grid/mod.ts";
import { addGsmWrites } from "./gsm_write.ts";
import { addPq, type PqDeps } from "./pq.ts";
import type { Db } from "../../../kernel/mod.ts";
import type { MeasurementStore } from "../../../core/mod.ts";
import type { ClientTokenKeys } from "../../identity/mod.ts";
import type { ApiClientsService } from "../service.ts";
import {
  errorStatuses,
  externalAuth,
  type ExternalEnv,
  problemResponse,
  RateLimiter,
  requireScope,
} from "./auth.ts";
import { type DmReader, valuesCsv, writeMeasurements } from "./dm.ts";
import {
  cellIdParam,
  cellPlacementPageDto,
  dmFeederPageDto,
  dmLatestDto,
  dmValuesPageDto,
  dmValuesQuery,
  dmWriteInput,
  dmWriteResultDto,
  feederIdParam,
  type FleetCellDto,
  fleetCellDto,
  fleetCellPageDto,
  pageQuery,
  paginate,
} from "./contract.ts";
import { externalNodePageDto, externalStructureDto } from "../contract.ts";

/** What the external routes read. */
export interface ExternalDeps {
  db: Db;
  /** gsm writes: the grid's setup service (the screens' rules and codes). */
  setup: GridSetupService;
  /** dm: the measured values of the customer's feeders. */
  dm: DmReader;
  /** dm writes: the streaming core's store and the raw lifetime (the cell protocol's rules). */
  store: MeasurementStore;
  rawLifetimeDays: number;
  cells: CellsService;
  keys: ClientTokenKeys;
  service: ApiClientsService;
  tenants: TenantDirectory;
  ratePerMinute: number;
  /** pq: the power-quality modules' facades (reports, events). */
  pq: PqDeps;
}

const READ_GRID = "api:read:grid-elements" as const;
const READ_DATA = "api:read:data" as const;
const WRITE_DATA = "api:write:data" as const;

const UNPLACED: CellMappingState = {
  status: "TO_BE_CONFIGURED",
  placed: false,
  node_id: null,
  complete: false,
  synchronized: false,
  feeders: [],
};

function fleetCell(
  cell: Awaited<ReturnType<CellsService["listFor"]>>[number],
  mapping: CellMappingState | undefined,
): FleetCellDto {
  return {
    id: cell.id,
    serial_number: cell.serial_number,
    type: cell.type,
    status: cell.status,
    node_id: cell.node_id,
    revoked: cell.revoked,
    gsm_signal: cell.gsm_signal,
    gps_fix: cell.gps_fix,
    firmware: cell.firmware,
    last_contact: cell.last_seen,
    provisioning_date: cell.provisioning_date,
    mapping: mapping ?? UNPLACED,
  };
}

/** The customer's cells as fm shows them. */
async function fleet(deps: ExternalDeps, customerKey: string): Promise<FleetCellDto[]> {
  const [cells, mappings] = await Promise.all([
    deps.cells.listFor(customerKey),
    cellMappingStates(deps.db, customerKey),
  ]);
  return cells.map((cell) => fleetCell(cell, mappings.get(cell.id)));
}

/** The versioned API's routes (relative to `/external/v1`), documented for OpenAPI. */
export function externalV1Routes(deps: ExternalDeps): Hono<ExternalEnv> {
  const limiter = new RateLimiter(deps.ratePerMinute);
  const app = readRoutes(deps, limiter);
  addGsmWrites(app, deps.setup);
  addPq(app, deps.pq);
  return app;
}

function readRoutes(deps: ExternalDeps, limiter: RateLimiter): Hono<ExternalEnv> {
  const key = (c: { get(name: "caller"): { tenant: { key: string } } }) =>
    c.get("caller").tenant.key;
  return new Hono<ExternalEnv>()
    .use(
      "*",
      externalAuth({ keys: deps.keys, service: deps.service, tenants: deps.tenants, limiter }),
    )
    .get(
      "/gsm/station-groups",
      requireScope(READ_GRID),
      doc({
        summary:
          "The grid structure: station groups, MV feeder groups, LV groups, nodes, electrical works, feeders",
        answer: externalStructureDto,
      }),
      async (c) => c.json(await readStructure(deps.db, key(c))),
    )
    .get(
      "/gsm/nodes",
      requireScope(READ_GRID),
      validate("query", pageQuery),
      doc({
        summary: "Nodes with their electrical works and feeders, paged",
        answer: externalNodePageDto,
      }),
      async (c) =>
        c.json(paginate(allNodes(await readStructure(deps.db, key(c))), c.req.valid("query"))),
    )
    .get(
      "/gsm/cells",
      requireScope(READ_GRID),
      validate("query", pageQuery),
      doc({ summary: "Where the cells are placed (node), paged", answer: cellPlacementPageDto }),
      async (c) => {
        const cells = (await deps.cells.listFor(key(c))).map((cell) => ({
          id: cell.id,
          serial_number: cell.serial_number,
          type: cell.type,
          node_id: cell.node_id,
        }));
        return c.json(paginate(cells, c.req.valid("query")));
      },
    )
    .get(
      "/dm/feeders",
      requireScope(READ_DATA),
      validate("query", pageQuery),
      doc({
        summary: "The customer's feeders and the cell measuring each, paged",
        answer: dmFeederPageDto,
      }),
      async (c) => c.json(paginate(await deps.dm.feeders(key(c)), c.req.valid("query"))),
    )
    .get(
      "/dm/feeders/:id/values",
      requireScope(READ_DATA),
      validate("param", feederIdParam),
      validate("query", dmValuesQuery),
      doc({
        summary:
          "A feeder's 20-s values or 10-minute, hourly or daily aggregates per phase for a period, paged (format=csv: text/csv)",
        answer: dmValuesPageDto,
      }),
      async (c) => {
        const q = c.req.valid("query");
        const page = await deps.dm.values(key(c), c.req.valid("param").id, q);
        if (q.format === "json") return c.json(page);
        return c.body(valuesCsv(page), 200, {
          "Content-Type": "text/csv; charset=utf-8",
          "Content-Disposition":
            `attachment; filename="feeder-values-${page.resolution}-p${page.page}.csv"`,
        });
      },
    )
    .post(
      "/dm/feeders/:id/measurements",
      requireScope(WRITE_DATA),
      validate("param", feederIdParam),
      validate("json", dmWriteInput),
      errorStatuses(409, 422),
      doc({
        summary:
          "Stores a third-party meter's measurements of a feeder no cell measures (the cell protocol's checks; 207 with refused records)",
        answer: dmWriteResultDto,
      }),
      async (c) => {
        const { status, body } = await writeMeasurements(
          deps.dm,
          deps.store,
          deps.rawLifetimeDays,
          key(c),
          c.req.valid("param").id,
          c.req.valid("json"),
        );
        return c.json(body, status);
      },
    )
    .get(
      "/dm/feeders/:id/latest",
      requireScope(READ_DATA),
      validate("param", feederIdParam),
      doc({ summary: "A feeder's newest 20-s voltage and current per phase", answer: dmLatestDto }),
      async (c) => c.json(await deps.dm.latest(key(c), c.req.valid("param").id)),
    )
    .get(
      "/fm/cells",
      requireScope(READ_GRID),
      validate("query", pageQuery),
      doc({
        summary:
          "Fleet: cells with state, signal, GPS, firmware, last contact and mapping status, paged",
        answer: fleetCellPageDto,
      }),
      async (c) => c.json(paginate(await fleet(deps, key(c)), c.req.valid("query"))),
    )
    .get(
      "/fm/cells/:id",
      requireScope(READ_GRID),
      validate("param", cellIdParam),
      doc({ summary: "One cell of the fleet", answer: fleetCellDto }),
      async (c) => {
        const id = c.req.valid("param").id;
        const cell = (await fleet(deps, key(c))).find((x) => x.id === id);
        if (!cell) throw new AppError("common.notFound");
        return c.json(cell);
      },
    );
}

/** `/external` with the problem-details error handler around the versioned routes. */
export function externalApp(v1: Hono<ExternalEnv>, document: () => unknown): Hono<AppEnv> {
  const app = new Hono<ExternalEnv>()
    .get(
      "/v1/openapi.json",
      doc({ summary: "The OpenAPI 3.1 document of external_v1 (no token needed)" }),
      (c) => c.json(document()),
    )
    .route("/v1", v1)
    .all("*", () => {
      throw new AppError("common.notFound");
    });
  app.onError((error, c) => {
    if (error instanceof AppError) return problemResponse(c, error);
    if (error instanceof HTTPException) {
      const status = error.status;
      const key = status === 413
        ? "common.payloadTooLarge"
        : status === 404
        ? "common.notFound"
        : "common.badRequest";
      return problemResponse(c, new AppError(key));
    }
    c.get("logger")?.error("Unhandled error", { error });
    return problemResponse(c, new AppError("common.internal"));
  });
  return app as unknown as Hono<AppEnv>;
}
