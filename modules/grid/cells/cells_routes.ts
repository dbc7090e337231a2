/**
 * Cells and mapping calls (docs/contracts.md, "Cells and mapping calls"), mounted at /gsm.
 * Holders of hes:infrastructure-setup read the cells, its administrators (and super-admins)
 * change them; the I/O configuration uses hes:io-configuration the same way. Ids of another
 * customer answer the same 404 as unknown ids.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { Hono } from "hono";
import type { MeasurementStore } from "../../../core/mod.ts";
import {
  type AppEnv,
  type Db,
  doc,
  type EventBus,
  requireApp,
  validate,
} from "../../../kernel/mod.ts";
import {
  activateModuleInput,
  cellIoDto,
  cellListQuery,
  cellMessageInput,
  cellPageDto,
  cellSearchQuery,
  ioModuleDto,
  ioModuleInput,
  ioModuleScaleInput,
  linkableNodeDto,
  linkCellInput,
  mappingDto,
  mappingInput,
  savedMappingDto,
  setupCellDto,
  validationDto,
} from "../contract.ts";
import { CellConfigurationService } from "./cell_configuration.ts";
import { CellMappingService } from "./cell_mapping.ts";
import { CellsSetupService } from "./cells_setup.ts";
import { IoModulesService } from "./io_modules.ts";

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

/** The services behind the cells calls and the cells' own configuration route. */
export interface CellsSetupServices {
  setup: CellsSetupService;
  mapping: CellMappingService;
  io: IoModulesService;
  configuration: CellConfigurationService;
}

/** Builds the cells services once for the routes of both sides. */
export function cellsSetupServices(deps: CellsSetupDeps): CellsSetupServices {
  const setup = new CellsSetupService(deps.db, deps.bus, deps.clock, deps.placementChanged);
  const mapping = new CellMappingService({ ...deps, setup });
  const io = new IoModulesService(deps.db, setup);
  const configuration = new CellConfigurationService(deps.db, deps.clock);
  return { setup, mapping, io, configuration };
}

/** Routes mounted at /gsm (behind authentication). */
export function cellsSetupRoutes({ setup, mapping, io }: CellsSetupServices): Hono<AppEnv> {
  const read = requireApp(SETUP_KEY);
  const write = requireApp(SETUP_KEY, { admin: true });
  const ioRead = requireApp(IO_KEY);
  const ioWrite = requireApp(IO_KEY, { admin: true });
  const cell = doc({ summary: "The cell after the change", answer: setupCellDto });

  return new Hono<AppEnv>()
    .get(
      "/cells",
      read,
      validate("query", cellListQuery),
      doc({ summary: "One page of a cell list", answer: cellPageDto }),
      async (c) => {
        const q = c.req.valid("query");
        return c.json(await setup.list(c.get("tenant").key, q.category, q.page));
      },
    )
    .get(
      "/cells/search",
      read,
      validate("query", cellSearchQuery),
      doc({ summary: "Cells by serial number, id or node name", answer: setupCellDto.array() }),
      async (c) => c.json(await setup.search(c.get("tenant").key, c.req.valid("query").q)),
    )
    .get(
      "/cells/linkable-nodes",
      read,
      doc({ summary: "Nodes a cell can be linked to", answer: linkableNodeDto.array() }),
      async (c) => c.json(await setup.linkableNodes(c.get("tenant").key)),
    )
    .get(
      "/cells/:id",
      read,
      doc({ summary: "One cell", answer: setupCellDto }),
      async (c) => c.json(await setup.get(c.get("tenant").key, c.req.param("id"))),
    )
    .put(
      "/cells/:id/message",
      write,
      validate("json", cellMessageInput),
      cell,
      async (c) => {
        const { key } = c.get("tenant");
        await setup.setMessage(key, c.req.param("id"), c.req.valid("json").message);
        return c.json(await setup.get(key, c.req.param("id")));
      },
    )
    .post("/cells/:id/take-from-stock", write, cell, async (c) => {
      const { key } = c.get("tenant");
      await setup.takeFromStock(key, c.req.param("id"));
      return c.json(await setup.get(key, c.req.param("id")));
    })
    .post("/cells/:id/link", write, validate("json", linkCellInput), cell, async (c) => {
      const { key } = c.get("tenant");
      return c.json(await setup.link(key, c.req.param("id"), c.req.valid("json").node_id));
    })
    .post("/cells/:id/unlink", write, cell, async (c) => {
      return c.json(await setup.unlink(c.get("tenant").key, c.req.param("id")));
    })
    .get(
      "/cells/:id/mapping",
      read,
      doc({ summary: "The cell's line mapping", answer: mappingDto }),
      async (c) => c.json(await mapping.get(c.get("tenant").key, c.req.param("id"))),
    )
    .put(
      "/cells/:id/mapping",
      write,
      validate("json", mappingInput),
      doc({ summary: "Replaces the cell's line mapping", answer: savedMappingDto }),
      async (c) => {
        const { entries } = c.req.valid("json");
        return c.json(await mapping.save(c.get("tenant").key, c.req.param("id"), entries, true));
      },
    )
    .patch(
      "/cells/:id/mapping",
      write,
      validate("json", mappingInput),
      doc({ summary: "Changes the mapping of the feeders named", answer: savedMappingDto }),
      async (c) => {
        const { entries } = c.req.valid("json");
        return c.json(await mapping.save(c.get("tenant").key, c.req.param("id"), entries, false));
      },
    )
    .post(
      "/cells/:id/mapping/validate",
      write,
      doc({ summary: "Validates the mapping on the cell's latest data", answer: validationDto }),
      async (c) => c.json(await mapping.validate(c.get("tenant").key, c.req.param("id"))),
    )
    .post("/cells/:id/mapping/confirm", write, cell, async (c) => {
      const { key } = c.get("tenant");
      await mapping.confirm(key, c.req.param("id"));
      return c.json(await setup.get(key, c.req.param("id")));
    })
    .post("/cells/:id/mapping/ignore", write, cell, async (c) => {
      const { key } = c.get("tenant");
      await mapping.ignore(key, c.req.param("id"));
      return c.json(await setup.get(key, c.req.param("id")));
    })
    .get(
      "/io-modules",
      ioRead,
      doc({ summary: "The customer's I/O module definitions", answer: ioModuleDto.array() }),
      async (c) => c.json(await io.list(c.get("tenant").key)),
    )
    .post(
      "/io-modules",
      ioWrite,
      validate("json", ioModuleInput),
      doc({ summary: "Defines an I/O module", answer: ioModuleDto, status: 201 }),
      async (c) => c.json(await io.create(c.get("tenant").key, c.req.valid("json")), 201),
    )
    .patch(
      "/io-modules/:id",
      ioWrite,
      validate("json", ioModuleScaleInput),
      doc({ summary: "Sets or removes an analog input's measuring range", answer: ioModuleDto }),
      async (c) => {
        const { scale } = c.req.valid("json");
        return c.json(await io.setScale(c.get("tenant").key, c.req.param("id"), scale));
      },
    )
    .delete(
      "/io-modules/:id",
      ioWrite,
      doc({ summary: "Deletes an I/O module no cell uses", status: 204 }),
      async (c) => {
        await io.remove(c.get("tenant").key, c.req.param("id"));
        return c.body(null, 204);
      },
    )
    .get(
      "/cells/:id/io-modules",
      ioRead,
      doc({ summary: "The I/O modules of a cell", answer: cellIoDto }),
      async (c) => c.json(await io.ofCell(c.get("tenant").key, c.req.param("id"))),
    )
    .post(
      "/cells/:id/io-modules",
      ioWrite,
      validate("json", activateModuleInput),
      doc({ summary: "Activates a module on a cell", answer: cellIoDto }),
      async (c) => {
        const { module_id } = c.req.valid("json");
        return c.json(await io.activate(c.get("tenant").key, c.req.param("id"), module_id));
      },
    )
    .delete(
      "/cells/:id/io-modules/:moduleId",
      ioWrite,
      doc({ summary: "Removes a module from a cell", answer: cellIoDto }),
      async (c) => {
        const { id, moduleId } = c.req.param();
        return c.json(await io.deactivate(c.get("tenant").key, id, moduleId));
      },
    );
}
