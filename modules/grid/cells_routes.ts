/**
 * Cells and mapping calls (docs/contracts.md, "Cells and mapping calls"), mounted at /gsm.
 * Holders of hes:infrastructure-setup read the cells, its administrators (and super-admins)
 * change them; the I/O configuration uses hes:io-configuration the same way. Ids of another
 * customer answer the same 404 as unknown ids.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { type Context, Hono } from "hono";
import { z } from "zod";
import type { MeasurementStore } from "../../core/mod.ts";
import {
  type AppEnv,
  AppError,
  type Db,
  type EventBus,
  holdsKey,
  isAppAdmin,
  validate,
} from "../../kernel/mod.ts";
import { CellMappingService } from "./cell_mapping.ts";
import { CELL_CATEGORIES, CellsSetupService, MESSAGE_MAX } from "./cells_setup.ts";
import { IoModulesService } from "./io_modules.ts";
import { IO_MODULE_TYPES, MAPPED_PHASES } from "./schema.ts";

const SETUP_KEY = "hes:infrastructure-setup";
const IO_KEY = "hes:io-configuration";

/** What the cells services need from the platform. */
export interface CellsSetupDeps {
  db: Db;
  bus: EventBus;
  store: MeasurementStore;
  /** DuckDB connection for queries (mapping validation reads the raw values). */
  analytics: DuckDBConnection;
  clock?: () => number;
  /** Told when a cell is linked or unlinked (the ingestion identity cache forgets it). */
  placementChanged?: (cellId: string) => void;
}

/** The services behind the cells calls (the cell configuration route uses `mapping`). */
export interface CellsSetupServices {
  setup: CellsSetupService;
  mapping: CellMappingService;
  io: IoModulesService;
}

/** Builds the cells services once for the routes of both sides. */
export function cellsSetupServices(deps: CellsSetupDeps): CellsSetupServices {
  const setup = new CellsSetupService(deps.db, deps.bus, deps.clock, deps.placementChanged);
  const mapping = new CellMappingService({ ...deps, setup });
  const io = new IoModulesService(deps.db, setup);
  return { setup, mapping, io };
}

const id = z.string().min(1).max(200);
const listQuery = z.strictObject({
  category: z.enum(CELL_CATEGORIES),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});
const searchQuery = z.strictObject({ q: z.string().trim().min(1).max(60) });
const messageBody = z.strictObject({ message: z.string().max(MESSAGE_MAX * 2).nullable() });
const linkBody = z.strictObject({ node_id: id });
const mappingBody = z.strictObject({
  entries: z.array(z.strictObject({
    node_id: id,
    feeder_id: id,
    probe: z.number().int().min(1).max(4),
    phase: z.enum(MAPPED_PHASES),
  })).max(48),
});
const moduleBody = z.strictObject({
  name: z.string().max(200),
  module_type: z.enum(IO_MODULE_TYPES),
  system_type: z.string().max(40),
  size: z.number().int().nullable().optional(),
  resolution: z.number().nullable().optional(),
});
const activateBody = z.strictObject({ module_id: id });

/** Routes mounted at /gsm (behind authentication). */
export function cellsSetupRoutes({ setup, mapping, io }: CellsSetupServices): Hono<AppEnv> {
  const customer = (c: Context<AppEnv>, key: string, write: boolean) => {
    const p = c.get("principal");
    const allowed = write
      ? isAppAdmin(p.appsRoles, key) || p.role === "super-admin"
      : holdsKey(p.appsRoles, key);
    if (!allowed) throw new AppError("common.forbidden");
    return c.get("tenant").key;
  };
  const read = (c: Context<AppEnv>) => customer(c, SETUP_KEY, false);
  const write = (c: Context<AppEnv>) => customer(c, SETUP_KEY, true);

  return new Hono<AppEnv>()
    .get("/cells", validate("query", listQuery), async (c) => {
      const q = c.req.valid("query");
      return c.json(await setup.list(read(c), q.category, q.page));
    })
    .get("/cells/search", validate("query", searchQuery), async (c) => {
      return c.json(await setup.search(read(c), c.req.valid("query").q));
    })
    .get("/cells/linkable-nodes", async (c) => c.json(await setup.linkableNodes(read(c))))
    .get("/cells/:id", async (c) => c.json(await setup.get(read(c), c.req.param("id"))))
    .put("/cells/:id/message", validate("json", messageBody), async (c) => {
      const key = write(c);
      await setup.setMessage(key, c.req.param("id"), c.req.valid("json").message);
      return c.json(await setup.get(key, c.req.param("id")));
    })
    .post("/cells/:id/take-from-stock", async (c) => {
      const key = write(c);
      await setup.takeFromStock(key, c.req.param("id"));
      return c.json(await setup.get(key, c.req.param("id")));
    })
    .post("/cells/:id/link", validate("json", linkBody), async (c) => {
      const key = write(c);
      return c.json(await setup.link(key, c.req.param("id"), c.req.valid("json").node_id));
    })
    .post("/cells/:id/unlink", async (c) => {
      return c.json(await setup.unlink(write(c), c.req.param("id")));
    })
    .get("/cells/:id/mapping", async (c) => {
      return c.json(await mapping.get(read(c), c.req.param("id")));
    })
    .put("/cells/:id/mapping", validate("json", mappingBody), async (c) => {
      const key = write(c);
      return c.json(await mapping.save(key, c.req.param("id"), c.req.valid("json").entries, true));
    })
    .patch("/cells/:id/mapping", validate("json", mappingBody), async (c) => {
      const key = write(c);
      return c.json(await mapping.save(key, c.req.param("id"), c.req.valid("json").entries, false));
    })
    .post("/cells/:id/mapping/validate", async (c) => {
      return c.json(await mapping.validate(write(c), c.req.param("id")));
    })
    .post("/cells/:id/mapping/confirm", async (c) => {
      const key = write(c);
      await mapping.confirm(key, c.req.param("id"));
      return c.json(await setup.get(key, c.req.param("id")));
    })
    .post("/cells/:id/mapping/ignore", async (c) => {
      const key = write(c);
      await mapping.ignore(key, c.req.param("id"));
      return c.json(await setup.get(key, c.req.param("id")));
    })
    .get("/io-modules", async (c) => c.json(await io.list(customer(c, IO_KEY, false))))
    .post("/io-modules", validate("json", moduleBody), async (c) => {
      const key = customer(c, IO_KEY, true);
      return c.json(await io.create(key, c.req.valid("json")), 201);
    })
    .delete("/io-modules/:id", async (c) => {
      await io.remove(customer(c, IO_KEY, true), c.req.param("id"));
      return c.body(null, 204);
    })
    .get("/cells/:id/io-modules", async (c) => {
      return c.json(await io.ofCell(customer(c, IO_KEY, false), c.req.param("id")));
    })
    .post("/cells/:id/io-modules", validate("json", activateBody), async (c) => {
      const key = customer(c, IO_KEY, true);
      return c.json(await io.activate(key, c.req.param("id"), c.req.valid("json").module_id));
    })
    .delete("/cells/:id/io-modules/:moduleId", async (c) => {
      const key = customer(c, IO_KEY, true);
      return c.json(await io.deactivate(key, c.req.param("id"), c.req.param("moduleId")));
    });
}
