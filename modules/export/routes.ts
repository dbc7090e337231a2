/**
 * The dem calls (docs/contracts.md, "Data export: /dem"): holders of hes:data-export; each user
 * sees and acts on their own exports of the customer (another's key answers 404).
 */
import { type Context, Hono } from "hono";
import { type AppEnv, AppError, doc, requireApp, validate } from "../../kernel/mod.ts";
import {
  createdDto,
  createExportInput,
  estimateDto,
  estimateInput,
  exportDto,
  exportFeedersDto,
  exportPageDto,
  exportPageQuery,
  exportUsageDto,
  linkDto,
  linkQuery,
  scheduleDto,
  scheduleInput,
  schedulesDto,
} from "./contract.ts";
import type { ScheduleService } from "./schedules.ts";
import { DownloadLinks } from "./download_link.ts";
import type { ExportService } from "./service.ts";

const APP = "hes:data-export";

/** The file of an export as a streamed download (from disk, never read into memory). */
async function sendFile(
  c: Context<AppEnv>,
  file: { path: string; size: number; fileName: string },
): Promise<Response> {
  const handle = await Deno.open(file.path, { read: true });
  c.header("Content-Type", "application/zip");
  c.header("Content-Length", String(file.size));
  c.header("Cache-Control", "no-store");
  c.header(
    "Content-Disposition",
    `attachment; filename="${file.fileName.replace(/[^\x20-\x7e]|"/g, "_")}"; filename*=UTF-8''${
      encodeURIComponent(file.fileName)
    }`,
  );
  return c.body(handle.readable);
}

/** The public download of a signed link (the browser navigates to it: no bearer token). */
export function exportLinkRoutes(service: ExportService, links: DownloadLinks): Hono<AppEnv> {
  return new Hono<AppEnv>().get(
    "/files/:key",
    validate("query", linkQuery),
    doc({ summary: "Downloads an export through a signed link", contentType: "application/zip" }),
    async (c) => {
      const key = c.req.param("key");
      const userId = await links.check(key, c.req.valid("query").token);
      if (!userId) throw new AppError("common.notFound");
      const customerKey = await service.customerOf(key, userId);
      return await sendFile(c, await service.file(customerKey, userId, key));
    },
  );
}

/** Routes mounted at /dem (behind authentication). */
export function exportRoutes(
  service: ExportService,
  links: DownloadLinks,
  schedules: ScheduleService,
): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("*", requireApp(APP));
  const who = (c: { get(k: "tenant"): { key: string }; get(k: "principal"): { userId: string } }) =>
    [c.get("tenant").key, c.get("principal").userId] as const;
  return app
    .get(
      "/feeders",
      doc({ summary: "Feeders that can be exported, with their groups", answer: exportFeedersDto }),
      async (c) => c.json(await service.feeders(c.get("tenant").key)),
    )
    .get(
      "/usage",
      requireApp(APP, { admin: true }),
      doc({
        summary: "Disk used by the customer's export files (administrators)",
        answer: exportUsageDto,
      }),
      async (c) => c.json(await service.usage(c.get("tenant").key)),
    )
    .post(
      "/exports/estimate",
      validate("json", estimateInput),
      doc({ summary: "Rows and estimated size of an export", answer: estimateDto }),
      async (c) => c.json(await service.estimate(c.get("tenant").key, c.req.valid("json"))),
    )
    .post(
      "/exports",
      validate("json", createExportInput),
      doc({ summary: "Starts an export in the background", answer: createdDto, status: 202 }),
      async (c) => c.json(await service.create(...who(c), c.req.valid("json")), 202),
    )
    .get(
      "/exports",
      validate("query", exportPageQuery),
      doc({ summary: "The user's exports, newest first", answer: exportPageDto }),
      async (c) => c.json(await service.page(...who(c), c.req.valid("query"))),
    )
    .get(
      "/exports/:key",
      doc({ summary: "One export: status, progress, size, expiry", answer: exportDto }),
      async (c) => c.json(await service.get(...who(c), c.req.param("key"))),
    )
    .get(
      "/exports/:key/file",
      doc({ summary: "Downloads the export's file", contentType: "application/zip" }),
      async (c) => await sendFile(c, await service.file(...who(c), c.req.param("key"))),
    )
    .post(
      "/exports/:key/link",
      doc({ summary: "A download link valid 5 minutes (for the browser)", answer: linkDto }),
      async (c) => {
        const [customerKey, userId] = who(c);
        const key = c.req.param("key");
        await service.get(customerKey, userId, key);
        const token = await links.token(key, userId);
        return c.json({ url: `/dem/files/${key}?token=${encodeURIComponent(token)}` });
      },
    )
    .post(
      "/exports/:key/cancel",
      doc({ summary: "Cancels a queued or running export", answer: exportDto }),
      async (c) => c.json(await service.cancel(...who(c), c.req.param("key"))),
    )
    .delete(
      "/exports/:key",
      doc({ summary: "Deletes an export and its file", status: 204 }),
      async (c) => {
        await service.delete(...who(c), c.req.param("key"));
        return c.body(null, 204);
      },
    )
    .get(
      "/schedules",
      doc({ summary: "The user's scheduled exports", answer: schedulesDto }),
      async (c) => c.json(await schedules.list(...who(c))),
    )
    .post(
      "/schedules",
      validate("json", scheduleInput),
      doc({
        summary: "Schedules an export daily, weekly or monthly",
        answer: scheduleDto,
        status: 201,
      }),
      async (c) => c.json(await schedules.create(...who(c), c.req.valid("json")), 201),
    )
    .get(
      "/schedules/:key",
      doc({ summary: "One scheduled export: its selection and next run", answer: scheduleDto }),
      async (c) => c.json(await schedules.get(...who(c), c.req.param("key"))),
    )
    .put(
      "/schedules/:key",
      validate("json", scheduleInput),
      doc({ summary: "Changes a scheduled export (or pauses it)", answer: scheduleDto }),
      async (c) =>
        c.json(await schedules.update(...who(c), c.req.param("key"), c.req.valid("json"))),
    )
    .post(
      "/schedules/:key/run",
      doc({
        summary: "Runs a scheduled export now: its last whole period, as a new export",
        answer: createdDto,
        status: 202,
      }),
      async (c) => c.json(await schedules.runNow(...who(c), c.req.param("key")), 202),
    )
    .delete(
      "/schedules/:key",
      doc({ summary: "Deletes a scheduled export (its files stay)", status: 204 }),
      async (c) => {
        await schedules.delete(...who(c), c.req.param("key"));
        return c.body(null, 204);
      },
    );
}
