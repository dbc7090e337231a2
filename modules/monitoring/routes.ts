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
      const answer = await service.answer(customerKey, c.req.valid("query").level);
      const headers: Record<string, string> = {
        ETag: answer.etag,
        "Cache-Control": "private, no-cache",
        Vary: "Accept-Encoding",
      };
      const match = c.req.header("if-none-match");
      const weak = (tag: string) => tag.trim().replace(/^W\//, "");
      if (match?.split(",").some((t) => weak(t) === weak(answer.etag))) {
        return c.body(null, 304, headers);
      }
      headers["Content-Type"] = "application/json; charset=UTF-8";
      if (acceptsGzip(c.req.header("accept-encoding"))) {
        headers["Content-Encoding"] = "gzip";
        return c.body(await answer.gzip() as Uint8Array<ArrayBuffer>, 200, headers);
      }
      return c.body(answer.body as Uint8Array<ArrayBuffer>, 200, headers);
    },
  );
  if (customMonitoring) {
    app.route("/custom-monitoring", customMonitoringRoutes(customMonitoring, customerKeyOf));
  }
  return app;
}

/** Whether an Accept-Encoding header allows gzip (not refused with q=0). */
function acceptsGzip(header: string | undefined): boolean {
  return (header ?? "").split(",").some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(";").map((s) => s.trim());
    if (coding !== "gzip" && coding !== "*") return false;
    const q = params.find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}
