/**
 * The grid structure calls, mounted at /gsm: the structure read of spec 7 and the setup calls
 * the spec leaves open (docs/contracts.md, "Grid setup calls"). Administrators of
 * hes:infrastructure-setup (and super-admins) write; holders of a module that shows the grid
 * read. Ids of another customer answer the same 404 as unknown ids.
 */
import { Hono } from "hono";
import type { z } from "zod";
import {
  type AppEnv,
  type Db,
  doc,
  type EventBus,
  requireApp,
  validate,
} from "../../../kernel/mod.ts";
import {
  deletedNodeDto,
  electricalWorkHitDto,
  electricalWorksSearchQuery,
  electricalWorksStatusDto,
  feederChangeDto,
  feederInput,
  groupNameInput,
  lvGroupAnswer,
  mvFeederGroupAnswer,
  mvTopologyDto,
  mvTopologyInput,
  newLvGroupInput,
  newMvFeederGroupInput,
  newNodeInput,
  nodeUpdateInput,
  setupNodeDto,
  stationGroupAnswer,
  stationGroupInput,
  structureAnswer,
  structureQuery,
} from "./contract.ts";
import type { GroupOperations } from "./groups.ts";
import { readStructure, visualStatisticsView } from "./read.ts";
import { GridSetupService } from "./setup_service.ts";

/** The module key of the infrastructure setup: its administrators change the grid. */
export const SETUP_KEY = "hes:infrastructure-setup";
/** Keys whose screens read the grid structure and its maps (spec 2.1). */
export const GRID_READERS = [
  SETUP_KEY,
  "app:visual-statistics",
  "app:grid-metering",
  "app:grid-monitoring",
] as const;
/** Keys of the metering status (Metering Information and Infrastructure Setup). */
const METERING_READERS = ["app:grid-metering", SETUP_KEY] as const;

/** Grid setup JSON bodies are small: larger ones answer 413 (the module's body limit). */
export const SETUP_BODY_LIMIT = {
  path: /^\/gsm\/(?:hv-mv-station-groups|mv-feeder-groups|lv-groups|nodes)(?:\/|$)/,
  bytes: 64 * 1024,
};

const reader = requireApp(GRID_READERS);
const writer = requireApp(SETUP_KEY, { admin: true });

/** One group level's calls: its path, its operations, its inputs and answer. */
interface GroupRoutes<New extends z.ZodType, Change extends z.ZodType> {
  path: string;
  what: string;
  ops: GroupOperations<z.output<New>, z.output<Change>, unknown, unknown>;
  create: New;
  update: Change;
  answer: z.ZodType;
}

/** Mounts create, update and delete of one group level. */
function mountGroup<New extends z.ZodType, Change extends z.ZodType>(
  app: Hono<AppEnv>,
  g: GroupRoutes<New, Change>,
): void {
  app.post(
    g.path,
    writer,
    validate("json", g.create),
    doc({ summary: `Creates ${g.what}`, answer: g.answer, status: 201 }),
    async (c) => {
      const input = c.req.valid("json") as z.output<New>;
      return c.json(await g.ops.create(c.get("tenant").key, input) as object, 201);
    },
  ).put(
    `${g.path}/:id`,
    writer,
    validate("json", g.update),
    doc({ summary: `Changes ${g.what}`, answer: g.answer }),
    async (c) => {
      const input = c.req.valid("json") as z.output<Change>;
      return c.json(await g.ops.update(c.get("tenant").key, c.req.param("id"), input) as object);
    },
  ).delete(
    `${g.path}/:id`,
    writer,
    doc({ summary: `Deletes ${g.what} without children`, status: 204 }),
    async (c) => {
      await g.ops.delete(c.get("tenant").key, c.req.param("id"));
      return c.body(null, 204);
    },
  );
}

/** Routes mounted at /gsm (behind authentication). */
export function structureRoutes(db: Db, bus?: EventBus): Hono<AppEnv> {
  const setup = new GridSetupService(db, bus);
  const app = new Hono<AppEnv>().get(
    "/grid-structure/hv-mv-station-groups",
    reader,
    validate("query", structureQuery),
    doc({
      summary: "The grid structure (view=visual-statistics: reshaped)",
      answer: structureAnswer,
    }),
    async (c) => {
      const structure = await readStructure(db, c.get("tenant").key);
      if (c.req.valid("query").view === "visual-statistics") {
        return c.json(visualStatisticsView(structure));
      }
      return c.json(structure);
    },
  );
  const groups = [
    {
      path: "/hv-mv-station-groups",
      what: "a station group",
      ops: setup.stations,
      create: stationGroupInput,
      update: stationGroupInput,
      answer: stationGroupAnswer,
    },
    {
      path: "/mv-feeder-groups",
      what: "an MV feeder group",
      ops: setup.mvFeederGroups,
      create: newMvFeederGroupInput,
      update: groupNameInput,
      answer: mvFeederGroupAnswer,
    },
    {
      path: "/lv-groups",
      what: "an LV group",
      ops: setup.lvGroups,
      create: newLvGroupInput,
      update: groupNameInput,
      answer: lvGroupAnswer,
    },
  ] as const;
  for (const g of groups) mountGroup(app, g as unknown as GroupRoutes<z.ZodType, z.ZodType>);

  const { nodes, mvTopology, electricalWorks } = setup;
  return app
    .get(
      "/mv-feeder-groups/:id/mv-topology",
      reader,
      doc({ summary: "The MV topology of an MV feeder group (351: none)", answer: mvTopologyDto }),
      async (c) => c.json(await mvTopology.get(c.get("tenant").key, c.req.param("id"))),
    )
    .put(
      "/mv-feeder-groups/:id/mv-topology",
      writer,
      validate("json", mvTopologyInput),
      doc({ summary: "Replaces the MV topology of an MV feeder group", answer: mvTopologyDto }),
      async (c) => {
        const { key } = c.get("tenant");
        return c.json(await mvTopology.set(key, c.req.param("id"), c.req.valid("json")));
      },
    )
    .delete(
      "/mv-feeder-groups/:id/mv-topology",
      writer,
      doc({ summary: "Removes the MV topology of an MV feeder group", status: 204 }),
      async (c) => {
        await mvTopology.clear(c.get("tenant").key, c.req.param("id"));
        return c.body(null, 204);
      },
    )
    .post(
      "/nodes",
      writer,
      validate("json", newNodeInput),
      doc({
        summary: "Creates a node with its electrical work and feeders",
        answer: setupNodeDto,
        status: 201,
      }),
      async (c) => c.json(await nodes.create(c.get("tenant").key, c.req.valid("json")), 201),
    )
    .get(
      "/nodes/:id",
      reader,
      doc({ summary: "A node with its electrical work and feeders", answer: setupNodeDto }),
      async (c) => c.json(await nodes.get(c.get("tenant").key, c.req.param("id"))),
    )
    .put(
      "/nodes/:id",
      writer,
      validate("json", nodeUpdateInput),
      doc({ summary: "Changes a node and its electrical work", answer: setupNodeDto }),
      async (c) => {
        const { key } = c.get("tenant");
        return c.json(await nodes.update(key, c.req.param("id"), c.req.valid("json")));
      },
    )
    .delete(
      "/nodes/:id",
      writer,
      doc({ summary: "Deletes a node; its cells wait for configuration", answer: deletedNodeDto }),
      async (c) => c.json(await nodes.delete(c.get("tenant").key, c.req.param("id"))),
    )
    .post(
      "/nodes/:id/feeders",
      writer,
      validate("json", feederInput),
      doc({ summary: "Adds a feeder to a node", answer: feederChangeDto, status: 201 }),
      async (c) => {
        const { key } = c.get("tenant");
        return c.json(await nodes.addFeeder(key, c.req.param("id"), c.req.valid("json")), 201);
      },
    )
    .put(
      "/nodes/:id/feeders/:feederId",
      writer,
      validate("json", feederInput),
      doc({ summary: "Changes a feeder of a node", answer: feederChangeDto }),
      async (c) => {
        const { id, feederId } = c.req.param();
        const input = c.req.valid("json");
        return c.json(await nodes.updateFeeder(c.get("tenant").key, id, feederId, input));
      },
    )
    .delete(
      "/nodes/:id/feeders/:feederId",
      writer,
      doc({ summary: "Deletes a feeder of a node", status: 204 }),
      async (c) => {
        const { id, feederId } = c.req.param();
        await nodes.deleteFeeder(c.get("tenant").key, id, feederId);
        return c.body(null, 204);
      },
    )
    .get(
      "/electrical-works/status",
      requireApp(METERING_READERS),
      doc({
        summary: "Metering status of every electrical work",
        answer: electricalWorksStatusDto,
      }),
      async (c) => c.json(await electricalWorks.status(c.get("tenant").key)),
    )
    .get(
      "/electrical-works/search",
      reader,
      validate("query", electricalWorksSearchQuery),
      doc({
        summary: "Electrical works by work or node name (3+ characters, 10 results)",
        answer: electricalWorkHitDto.array(),
      }),
      async (c) => {
        const { q } = c.req.valid("query");
        return c.json(await electricalWorks.search(c.get("tenant").key, q));
      },
    );
}
