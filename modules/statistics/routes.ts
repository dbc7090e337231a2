/** The vsm calls (docs/contracts.md, "Visual statistics: /vsm"). */
import { Hono } from "hono";
import { z } from "zod";
import { HISTOGRAM_BINS, RESOLUTION_NAMES, STATISTICS_PARAMETER_KEYS } from "../../core/mod.ts";
import { type AppEnv, requireApp, validate } from "../../kernel/mod.ts";
import type { StatisticsService } from "./service.ts";

/** A comma-separated list, trimmed, without empty items or repeats (order kept). */
const list = (maxChars: number) =>
  z.string().max(maxChars).transform((text) => [
    ...new Set(text.split(",").map((item) => item.trim()).filter(Boolean)),
  ]);
const feederId = z.string().max(64);
const parameter = z.enum(STATISTICS_PARAMETER_KEYS);
const period = {
  from: z.string().max(64),
  to: z.string().max(64),
  level: z.enum(["LV", "MV"]).default("LV"),
};
const resolution = z.enum(["auto", ...RESOLUTION_NAMES]).default("auto");

const seriesQuery = z.strictObject({
  ...period,
  feeders: list(2_000).pipe(z.array(feederId).min(1)),
  parameters: list(200).pipe(z.array(parameter).min(1)),
  resolution,
});
const histogramQuery = z.strictObject({
  ...period,
  feeder: feederId.min(1),
  parameter,
  phase: z.enum(["L1", "L2", "L3"]).optional(),
  bins: z.string().regex(/^\d{1,3}$/).transform(Number).pipe(
    z.number().int().min(HISTOGRAM_BINS.min).max(HISTOGRAM_BINS.max),
  ).optional(),
});
const compareQuery = z.strictObject({
  ...period,
  // The count (2 to 10) is the service's rule, with its own message.
  feeders: list(2_000).pipe(z.array(feederId)),
  parameter,
  phase: z.enum(["L1", "L2", "L3", "all"]).default("all"),
  resolution,
});

/** Routes mounted at /vsm (behind authentication), for holders of app:visual-statistics. */
export function statisticsRoutes(service: StatisticsService): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("*", requireApp("app:visual-statistics"));
  return app
    .get("/parameters", (c) => c.json(service.parameters()))
    .get("/series", validate("query", seriesQuery), async (c) =>
      c.json(
        await service.series(c.get("tenant").key, c.req.valid("query")),
      ))
    .get("/histogram", validate("query", histogramQuery), async (c) =>
      c.json(
        await service.histogram(c.get("tenant").key, c.req.valid("query")),
      ))
    .get("/compare", validate("query", compareQuery), async (c) =>
      c.json(
        await service.compare(c.get("tenant").key, c.req.valid("query")),
      ));
}
