/**
 * gsm writes of external_v1 (scope api:write:grid-elements): station groups, MV feeder groups,
 * LV groups, nodes and feeders created, changed and deleted through the grid's own setup
 * service (modules/grid's mod.ts), with the bodies, rules and error codes of the Infrastructure
 * Setup screen. Ids of another customer answer 404 like unknown ones.
 */
import type { Hono } from "hono";
import type { z } from "zod";
import { doc, validate } from "../../../kernel/mod.ts";
import type { GridSetupService } from "../../grid/mod.ts";
import {
  deletedNodeDto,
  feederChangeDto,
  feederInput,
  groupNameInput,
  lvGroupAnswer,
  mvFeederGroupAnswer,
  newLvGroupInput,
  newMvFeederGroupInput,
  newNodeInput,
  nodeUpdateInput,
  setupNodeDto,
  stationGroupAnswer,
  stationGroupInput,
} from "../contract.ts";
import { errorStatuses, type ExternalEnv, requireScope } from "./auth.ts";

const WRITE_GRID = "api:write:grid-elements" as const;

interface Group {
  path: string;
  what: string;
  ops: {
    create(key: string, input: never): Promise<unknown>;
    update(key: string, id: string, input: never): Promise<unknown>;
    delete(key: string, id: string): Promise<unknown>;
  };
  create: z.ZodType;
  update: z.ZodType;
  answer: z.ZodType;
}

/** Adds the gsm write routes to the versioned app. */
export function addGsmWrites(app: Hono<ExternalEnv>, setup: GridSetupService): void {
  const key = (c: { get(name: "caller"): { tenant: { key: string } } }) =>
    c.get("caller").tenant.key;
  const writer = requireScope(WRITE_GRID);
  const groups: Group[] = [
    {
      path: "/gsm/station-groups",
      what: "a station group",
      ops: setup.stations,
      create: stationGroupInput,
      update: stationGroupInput,
      answer: stationGroupAnswer,
    },
    {
      path: "/gsm/mv-feeder-groups",
      what: "an MV feeder group",
      ops: setup.mvFeederGroups,
      create: newMvFeederGroupInput,
      update: groupNameInput,
      answer: mvFeederGroupAnswer,
    },
    {
      path: "/gsm/lv-groups",
      what: "an LV group",
      ops: setup.lvGroups,
      create: newLvGroupInput,
      update: groupNameInput,
      answer: lvGroupAnswer,
    },
  ];
  for (const g of groups) {
    app.post(
      g.path,
      writer,
      validate("json", g.create),
      doc({ summary: `Creates ${g.what}`, answer: g.answer, status: 201 }),
      async (c) => c.json(await g.ops.create(key(c), c.req.valid("json") as never) as object, 201),
    );
    app.put(
      `${g.path}/:id`,
      writer,
      validate("json", g.update),
      doc({ summary: `Changes ${g.what}`, answer: g.answer }),
      async (c) =>
        c.json(
          await g.ops.update(key(c), c.req.param("id"), c.req.valid("json") as never) as object,
        ),
    );
    app.delete(
      `${g.path}/:id`,
      writer,
      errorStatuses(409),
      doc({ summary: `Deletes ${g.what} without children (409 with children)`, status: 204 }),
      async (c) => {
        await g.ops.delete(key(c), c.req.param("id"));
        return c.body(null, 204);
      },
    );
  }
  const { nodes } = setup;
  app.post(
    "/gsm/nodes",
    writer,
    validate("json", newNodeInput),
    doc({
      summary: "Creates a node with its electrical work and feeders",
      answer: setupNodeDto,
      status: 201,
    }),
    async (c) => c.json(await nodes.create(key(c), c.req.valid("json")), 201),
  );
  app.put(
    "/gsm/nodes/:id",
    writer,
    validate("json", nodeUpdateInput),
    doc({ summary: "Changes a node and its electrical work", answer: setupNodeDto }),
    async (c) => c.json(await nodes.update(key(c), c.req.param("id"), c.req.valid("json"))),
  );
  app.delete(
    "/gsm/nodes/:id",
    writer,
    doc({ summary: "Deletes a node; its cells wait for configuration", answer: deletedNodeDto }),
    async (c) => c.json(await nodes.delete(key(c), c.req.param("id"))),
  );
  app.post(
    "/gsm/nodes/:id/feeders",
    writer,
    validate("json", feederInput),
    errorStatuses(422),
    doc({ summary: "Adds a feeder to a node", answer: feederChangeDto, status: 201 }),
    async (c) => c.json(await nodes.addFeeder(key(c), c.req.param("id"), c.req.valid("json")), 201),
  );
  app.put(
    "/gsm/nodes/:id/feeders/:feederId",
    writer,
    validate("json", feederInput),
    doc({ summary: "Changes a feeder of a node", answer: feederChangeDto }),
    async (c) => {
      const { id, feederId } = c.req.param();
      return c.json(await nodes.updateFeeder(key(c), id, feederId, c.req.valid("json")));
    },
  );
  app.delete(
    "/gsm/nodes/:id/feeders/:feederId",
    writer,
    errorStatuses(409),
    doc({ summary: "Deletes a feeder of a node (409 for its last one)", status: 204 }),
    async (c) => {
      const { id, feederId } = c.req.param();
      await nodes.deleteFeeder(key(c), id, feederId);
      return c.body(null, 204);
    },
  );
}
