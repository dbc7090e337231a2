/** The evm calls: grid status (spec 7) and custom monitoring. */
import { Hono } from "hono";
import { z } from "zod";
import { type AppEnv, AppError, requireApp, validate } from "../kernel/mod.ts";
import type { CustomMonitoring } from "./custom_monitoring.ts";
import { customMonitoringRoutes } from "./custom_routes.ts";
import type { GridStatusService } from "./service.ts";

const statusQuery = z.strictObject({ level: z.enum(["LV", "MV"]) });

/** Routes mounted at /evm (behind authentication); custom monitoring when it is given. */
export function monitoringRoutes(
  service: GridStatusService,
  customerKeyOf: (connection: string) => Promise<string | null>,
  customMonitoring?: CustomMonitoring,
): Hono<AppEnv> {
  const app = new Hono<AppEnv>().get(
    "/grid-monitoring/grid-status",
    requireApp("app:grid-monitoring"),
    validate("query", statusQuery),
    async (c) => {
      const customerKey = await customerKeyOf(c.get("principal").customer);
      if (!customerKey) throw new AppError("common.notFound");
      return c.json(await service.status(customerKey, c.req.valid("query").level));
    },
  );
  if (customMonitoring) {
    app.route("/custom-monitoring", customMonitoringRoutes(customMonitoring, customerKeyOf));
  }
  return app;
}
