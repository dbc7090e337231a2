/**
 * The pqe calls (spec 7 "/pqe/electrical-works"; docs/contracts.md "Power-quality events:
 * /pqe"), for holders of app:power-quality.
 */
import { Hono } from "hono";
import { type AppEnv, doc, requireApp, validate } from "../../kernel/mod.ts";
import {
  eventDetailDto,
  eventFilterQuery,
  eventListQuery,
  eventPageDto,
  eventPointsDto,
  eventTablesDto,
  eventWorksDto,
} from "./contract.ts";
import type { VoltageEventsService } from "./service.ts";

/** Routes mounted at /pqe (behind authentication). */
export function voltageEventsRoutes(service: VoltageEventsService): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("*", requireApp("app:power-quality"));
  return app
    .get(
      "/electrical-works",
      doc({
        summary: "Electrical works and nodes with their recent events",
        answer: eventWorksDto,
      }),
      async (c) => c.json(await service.works(c.get("tenant").key)),
    )
    .get(
      "/events",
      validate("query", eventListQuery),
      doc({ summary: "Voltage events, 12 per page, newest first", answer: eventPageDto }),
      async (c) => c.json(await service.list(c.get("tenant").key, c.req.valid("query"))),
    )
    .get(
      "/events/tables",
      validate("query", eventFilterQuery),
      doc({ summary: "EN 50160 dip and swell tables with counts", answer: eventTablesDto }),
      async (c) => c.json(await service.tables(c.get("tenant").key, c.req.valid("query"))),
    )
    .get(
      "/events/points",
      validate("query", eventFilterQuery),
      doc({ summary: "Magnitude-duration points of the events", answer: eventPointsDto }),
      async (c) => c.json(await service.points(c.get("tenant").key, c.req.valid("query"))),
    )
    .get(
      "/events/:key",
      doc({ summary: "An event with its RMS trace", answer: eventDetailDto }),
      async (c) => c.json(await service.detail(c.get("tenant").key, c.req.param("key"))),
    );
}
