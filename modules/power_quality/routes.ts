/**
 * The pqm calls (spec 7; docs/contracts.md "Power quality reports: /pqm"): holders of
 * app:power-quality in a customer whose applications list it; others get 403.
 */
import { type Context, Hono } from "hono";
import { z } from "zod";
import { type AppEnv, AppError, doc, requireApp, validate } from "../../kernel/mod.ts";
import {
  createReportInput,
  limitSetDto,
  limitSetInput,
  limitSetsDto,
  pqElectricalWorksDto,
  reportAcceptedDto,
  reportDetailDto,
  reportDto,
  reportPageDto,
  reportsQuery,
} from "./contract.ts";
import type { ReportsService } from "./service.ts";
import type { ReportCsv } from "./csv.ts";
import type { LimitSetsService } from "./limit_sets.ts";

const APP = "app:power-quality";

/** A file name of the report's name (spec 5 names have no path characters). */
const fileName = (name: string, ext: string) =>
  `${name.replace(/[^\p{L}\p{N} ._-]/gu, "_").trim() || "report"}.${ext}`;

const disposition = (name: string) =>
  `attachment; filename="${name.replace(/[^\x20-\x7e]|"/g, "_")}"; filename*=UTF-8''${
    encodeURIComponent(name)
  }`;

/** Routes mounted at /pqm (behind authentication). */
export function powerQualityRoutes(
  service: ReportsService,
  csv: ReportCsv,
  limitSets: LimitSetsService,
): Hono<AppEnv> {
  const customerKey = (c: Context<AppEnv>) => c.get("tenant").key;
  return new Hono<AppEnv>()
    .use("*", requireApp(APP), async (c, next) => {
      // Before any body is read: a customer whose applications lack power quality gets 403.
      const tenant = c.get("tenant");
      if (!tenant.applications.includes(APP)) throw new AppError("common.forbidden", { key: APP });
      await next();
    })
    .get(
      "/electrical-works",
      doc({
        summary: "Electrical works, nodes and feeders to report on",
        answer: pqElectricalWorksDto,
      }),
      async (c) => c.json(await service.electricalWorks(customerKey(c))),
    )
    .post(
      "/reports",
      validate("json", createReportInput),
      doc({
        summary: "Create a report (runs in the background)",
        answer: reportAcceptedDto,
        status: 202,
      }),
      async (c) => {
        const caller = { customerKey: customerKey(c), userId: c.get("principal").userId };
        return c.json(await service.create(caller, c.req.valid("json")), 202);
      },
    )
    .get(
      "/reports",
      validate("query", reportsQuery),
      doc({ summary: "Reports, newest first, 12 per page", answer: reportPageDto }),
      async (c) => c.json(await service.list(customerKey(c), c.req.valid("query"))),
    )
    .get(
      "/reports/:key",
      doc({ summary: "A report with its status, progress and summary", answer: reportDetailDto }),
      async (c) => c.json(await service.get(customerKey(c), c.req.param("key"))),
    )
    .get(
      "/reports/:key/pdf",
      doc({ summary: "The report's PDF", answer: z.string(), contentType: "application/pdf" }),
      async (c) => {
        const { row, pdf } = await service.pdf(customerKey(c), c.req.param("key"));
        return c.body(pdf as Uint8Array<ArrayBuffer>, 200, {
          "content-type": "application/pdf",
          "content-disposition": disposition(fileName(row.name, "pdf")),
        });
      },
    )
    .get(
      "/reports/:key/csv",
      doc({
        summary: "The report's 10-minute values and results as CSV",
        answer: z.string(),
        contentType: "text/csv",
      }),
      async (c) => {
        const row = await service.row(customerKey(c), c.req.param("key"));
        const body = await csv.stream(row);
        return c.body(body, 200, {
          "content-type": "text/csv; charset=utf-8",
          "content-disposition": disposition(fileName(row.name, "csv")),
        });
      },
    )
    .post(
      "/reports/:key/cancel",
      doc({ summary: "Cancel a Scheduled or In progress report", answer: reportDto }),
      async (c) => c.json(await service.cancel(customerKey(c), c.req.param("key"))),
    )
    .get(
      "/limit-sets",
      doc({
        summary: "EN 50160 (locked) and the customer's custom limit sets",
        answer: limitSetsDto,
      }),
      async (c) => c.json(await limitSets.list(customerKey(c))),
    )
    .post(
      "/limit-sets",
      requireApp(APP, { admin: true }),
      validate("json", limitSetInput),
      doc({
        summary: "Create a custom limit set (administrators)",
        answer: limitSetDto,
        status: 201,
      }),
      async (c) => {
        const by = c.get("principal").userId;
        return c.json(await limitSets.create(customerKey(c), by, c.req.valid("json")), 201);
      },
    )
    .put(
      "/limit-sets/:key",
      requireApp(APP, { admin: true }),
      validate("json", limitSetInput),
      doc({
        summary: "Change a custom limit set (administrators; EN 50160 is locked)",
        answer: limitSetDto,
      }),
      async (c) => {
        const by = c.get("principal").userId;
        return c.json(
          await limitSets.update(customerKey(c), by, c.req.param("key"), c.req.valid("json")),
        );
      },
    )
    .delete(
      "/limit-sets/:key",
      requireApp(APP, { admin: true }),
      doc({ summary: "Delete a custom limit set (administrators)", answer: null, status: 204 }),
      async (c) => {
        await limitSets.delete(customerKey(c), c.req.param("key"));
        return c.body(null, 204);
      },
    )
    .delete(
      "/reports/:key",
      doc({ summary: "Delete a report that is not running", answer: null, status: 204 }),
      async (c) => {
        await service.delete(customerKey(c), c.req.param("key"));
        return c.body(null, 204);
      },
    );
}
