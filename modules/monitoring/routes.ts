/** The evm calls: grid status (spec 7), one node's detail and history, and custom monitoring. */
import { Hono } from "hono";
import { type AppEnv, AppError, doc, requireApp, validate } from "../../kernel/mod.ts";
import {
  gridStatusDto,
  gridStatusQuery,
  nodeDetailDto,
  nodeQuery,
  nodeValuesDto,
  nodeValuesQuery,
} from "./contract.ts";
import type { CustomMonitoring } from "./custom/monitoring.ts";
import { customMonitoringRoutes } from "./custom/routes.ts";
import { nodeDetail, nodeValues, valuesPeriod } from "./node_detail.ts";
import type { GridStatusService, Level } from "./service.ts";

/** Routes mounted at /evm (behind authentication); custom monitoring when it is given. */
export function monitoringRoutes(
  service: GridStatusService,
  customMonitoring?: CustomMonitoring,
): Hono<AppEnv> {
  const app = new Hono<AppEnv>().get(
    "/grid-monitoring/grid-status",
    requireApp("app:grid-monitoring"),
    validate("query", gridStatusQuery),
    doc({ summary: "Grid status of a voltage level (ETag, gzip)", answer: gridStatusDto }),
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
      doc({ summary: "One node: states, latest values, warnings", answer: nodeDetailDto }),
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
      validate("query", nodeValuesQuery),
      doc({ summary: "One node's values on a regular grid (gaps as null)", answer: nodeValuesDto }),
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
