/** The evm calls of spec 7 that exist so far. */
import { Hono } from "hono";
import { z } from "zod";
import { type AppEnv, AppError, requireApp, validate } from "../kernel/mod.ts";
import type { GridStatusService } from "./service.ts";

const statusQuery = z.strictObject({ level: z.enum(["LV", "MV"]) });

/** Routes mounted at /evm (behind authentication). */
export function monitoringRoutes(
  service: GridStatusService,
  customerKeyOf: (connection: string) => Promise<string | null>,
): Hono<AppEnv> {
  return new Hono<AppEnv>().get(
    "/grid-monitoring/grid-status",
    requireApp("app:grid-monitoring"),
    validate("query", statusQuery),
    async (c) => {
      const customerKey = await customerKeyOf(c.get("principal").customer);
      if (!customerKey) throw new AppError("common.notFound");
      return c.json(await service.status(customerKey, c.req.valid("query").level));
    },
  );
}
