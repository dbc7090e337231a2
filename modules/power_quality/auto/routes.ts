/**
 * The calls of auto-analyses and of the grid-wide compliance view, mounted at /pqm beside the
 * reports (docs/contracts.md): holders of app:power-quality read, its administrators change.
 */
import { type Context, Hono, type MiddlewareHandler } from "hono";
import { type AppEnv, AppError, doc, requireApp, validate } from "../../../kernel/mod.ts";
import {
  autoAnalysesDto,
  autoAnalysisDto,
  autoAnalysisInput,
  autoRunDto,
  autoRunPageDto,
  autoRunsQuery,
  complianceDto,
  complianceMapDto,
  complianceQuery,
  complianceQueuedDto,
  complianceWeekQuery,
} from "./contract.ts";
import type { AutoAnalysesService } from "./service.ts";
import type { ComplianceService } from "./compliance_view.ts";

const APP = "app:power-quality";

/** Routes mounted at /pqm (behind authentication). */
export function autoAnalysisRoutes(
  service: AutoAnalysesService,
  compliance: ComplianceService,
): Hono<AppEnv> {
  const customerKey = (c: Context<AppEnv>) => c.get("tenant").key;
  const admin = requireApp(APP, { admin: true });
  // Before any body is read: a customer whose applications lack power quality gets 403.
  const listed: MiddlewareHandler<AppEnv> = async (c, next) => {
    if (!c.get("tenant").applications.includes(APP)) {
      throw new AppError("common.forbidden", { key: APP });
    }
    await next();
  };
  const guard = [requireApp(APP), listed] as const;
  return new Hono<AppEnv>()
    .use("/auto-analyses", ...guard)
    .use("/auto-analyses/*", ...guard)
    .use("/compliance", ...guard)
    .use("/compliance/*", ...guard)
    .get(
      "/auto-analyses",
      doc({ summary: "Auto-analyses of the customer", answer: autoAnalysesDto }),
      async (c) => c.json(await service.list(customerKey(c))),
    )
    .post(
      "/auto-analyses",
      admin,
      validate("json", autoAnalysisInput),
      doc({
        summary: "Schedule a weekly auto-analysis (administrators; 513, 520)",
        answer: autoAnalysisDto,
        status: 201,
      }),
      async (c) => {
        const caller = { customerKey: customerKey(c), userId: c.get("principal").userId };
        return c.json(await service.create(caller, c.req.valid("json")), 201);
      },
    )
    .put(
      "/auto-analyses/:key",
      admin,
      validate("json", autoAnalysisInput),
      doc({
        summary: "Change a paused auto-analysis (administrators; 503 when active)",
        answer: autoAnalysisDto,
      }),
      async (c) =>
        c.json(await service.update(customerKey(c), c.req.param("key"), c.req.valid("json"))),
    )
    .post(
      "/auto-analyses/:key/pause",
      admin,
      doc({ summary: "Pause an active auto-analysis (503 otherwise)", answer: autoAnalysisDto }),
      async (c) => c.json(await service.pause(customerKey(c), c.req.param("key"))),
    )
    .post(
      "/auto-analyses/:key/resume",
      admin,
      doc({ summary: "Resume a paused auto-analysis (503 otherwise)", answer: autoAnalysisDto }),
      async (c) => c.json(await service.resume(customerKey(c), c.req.param("key"))),
    )
    .post(
      "/auto-analyses/:key/run",
      admin,
      doc({
        summary: "Run an auto-analysis now over the last complete week (503 while one runs)",
        answer: autoRunDto,
        status: 202,
      }),
      async (c) => c.json(await service.runNow(customerKey(c), c.req.param("key")), 202),
    )
    .delete(
      "/auto-analyses/:key",
      admin,
      doc({
        summary: "Delete a paused auto-analysis and its history (503 when active)",
        answer: null,
        status: 204,
      }),
      async (c) => {
        await service.delete(customerKey(c), c.req.param("key"));
        return c.body(null, 204);
      },
    )
    .get(
      "/auto-analyses/:key/runs",
      validate("query", autoRunsQuery),
      doc({
        summary: "Runs of an auto-analysis, newest first, 12 per page",
        answer: autoRunPageDto,
      }),
      async (c) =>
        c.json(
          await service.runs(customerKey(c), c.req.param("key"), c.req.valid("query").page),
        ),
    )
    .get(
      "/compliance",
      validate("query", complianceQuery),
      doc({
        summary:
          "EN 50160 verdicts of an evaluated week (grid-wide compliance): counts and one page of 50 nodes with a verdict filter",
        answer: complianceDto,
      }),
      async (c) => c.json(await compliance.get(customerKey(c), c.req.valid("query"))),
    )
    .get(
      "/compliance/map",
      validate("query", complianceWeekQuery),
      doc({
        summary: "Every node of an evaluated week with its EN 50160 verdict and place (the map)",
        answer: complianceMapDto,
      }),
      async (c) => c.json(await compliance.map(customerKey(c), c.req.valid("query").week)),
    )
    .post(
      "/compliance/evaluate",
      admin,
      doc({
        summary: "Evaluate the whole grid's last complete week again (administrators)",
        answer: complianceQueuedDto,
        status: 202,
      }),
      async (c) => c.json(await compliance.evaluate(customerKey(c)), 202),
    );
}
