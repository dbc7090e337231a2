/** The vsm calls (docs/contracts.md, "Visual statistics: /vsm"). */
import { Hono } from "hono";
import { type AppEnv, doc, requireApp, validate } from "../../kernel/mod.ts";
import {
  compareDto,
  compareQuery,
  histogramDto,
  histogramQuery,
  parametersDto,
  seriesDto,
  seriesQuery,
} from "./contract.ts";
import type { StatisticsService } from "./service.ts";

/** Routes mounted at /vsm (behind authentication), for holders of app:visual-statistics. */
export function statisticsRoutes(service: StatisticsService): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("*", requireApp("app:visual-statistics"));
  return app
    .get(
      "/parameters",
      doc({ summary: "Parameters that can be charted, and the limits", answer: parametersDto }),
      (c) => c.json(service.parameters()),
    )
    .get(
      "/series",
      validate("query", seriesQuery),
      doc({ summary: "Time series per feeder and parameter", answer: seriesDto }),
      async (c) => c.json(await service.series(c.get("tenant").key, c.req.valid("query"))),
    )
    .get(
      "/histogram",
      validate("query", histogramQuery),
      doc({ summary: "Distribution of one feeder's parameter", answer: histogramDto }),
      async (c) => c.json(await service.histogram(c.get("tenant").key, c.req.valid("query"))),
    )
    .get(
      "/compare",
      validate("query", compareQuery),
      doc({ summary: "One curve per feeder (2 to 10)", answer: compareDto }),
      async (c) => c.json(await service.compare(c.get("tenant").key, c.req.valid("query"))),
    );
}
