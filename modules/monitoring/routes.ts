/** The evm calls: grid status (spec 7), one node's detail and history, and custom monitoring. */
import { Hono } from "hono";
import { z } from "zod";
import { type AppEnv, AppError, requireApp, validate } from "../../kernel/mod.ts";
import type { CustomMonitoring } from "./custom_monitoring.ts";
import { customMonitoringRoutes } from "./custom_routes.ts";
import { nodeDetail, nodeValues, valuesPeriod } from "./node_detail.ts";
import type { GridStatusService, Level } from "./service.ts";

const statusQuery = z.strictObject({
  level: z.enum(["LV", "MV"]),
  view: z.enum(["full", "summary"]).default("full"),
});
const nodeQuery = z.strictObject({ level: z.enum(["LV", "MV"]) });
// Periods are checked by valuesPeriod, so that a wrong one answers the data codes (401-403).
const valuesQuery = z.strictObject({
  level: z.enum(["LV", "MV"]),
  from: z.string().max(64).optional(),
  to: z.string().max(64).optional(),
});

/** Routes mounted at /evm (behind authentication); custom monitoring when it is given. */
export function monitoringRoutes(
  service: GridStatusService,
  customMonitoring?: CustomMonitoring,
): Hono<AppEnv> {
  const app = new Hono<AppEnv>().get(
    "/grid-monitoring/grid-status",
    requireApp("app:grid-monitoring"),
    validate("query", statusQuery),
    async (c) => {
      const { level, view } = c.req.valid("query");
      const answer = await service.answer(c.get("tenant").key, level, Date.now(), view);
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
    // One node of the evaluation: 404 grid.elementNotFound when unknown, foreign or not at the level.
    const node = async (customerKey: string, level: Level, id: string) => {
      const evaluation = await service.nodeEvaluation(customerKey, level, id);
      if (!evaluation) throw new AppError("grid.elementNotFound");
      const caller = { userId: "", customerKey, superRole: false, admin: false };
      const { cellId } = await customMonitoring.requests.node(caller, id);
      return { evaluation, cellId };
    };
    app.get(
      "/grid-monitoring/nodes/:id",
      requireApp("app:grid-monitoring"),
      validate("query", nodeQuery),
      async (c) => {
        const { level } = c.req.valid("query");
        const { evaluation, cellId } = await node(c.get("tenant").key, level, c.req.param("id"));
        return c.json(
          await nodeDetail(evaluation, level, cellId, customMonitoring.history, Date.now()),
        );
      },
    ).get(
      "/grid-monitoring/nodes/:id/values",
      requireApp("app:grid-monitoring"),
      validate("query", valuesQuery),
      async (c) => {
        const q = c.req.valid("query");
        const period = valuesPeriod(q.from, q.to, Date.now());
        const { evaluation, cellId } = await node(c.get("tenant").key, q.level, c.req.param("id"));
        return c.json(
          await nodeValues(evaluation, q.level, cellId, customMonitoring.history, period),
        );
      },
    );
    app.route("/custom-monitoring", customMonitoringRoutes(customMonitoring));
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
