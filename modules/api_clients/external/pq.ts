/**
 * external_v1 pq: power-quality reports (list, create, status, PDF and CSV) and voltage events
 * (list, detail, recording request and download), through the power-quality modules' facades
 * (their mod.ts): the screens' rules and codes (401-403, 501-526), the customer's data only,
 * and only for a customer whose applications list power quality (403 otherwise, as the screens).
 * Reads need api:read:data; creating a report and asking a cell for a recording change state
 * (a report counts against the customer's limit, a request makes the cell upload), so they need
 * api:write:data.
 */
import type { Context, Hono, MiddlewareHandler } from "hono";
import { z } from "zod";
import { AppError, doc, validate } from "../../../kernel/mod.ts";
import type { ExternalReports } from "../../power_quality/mod.ts";
import type { ExternalEvents } from "../../voltage_events/mod.ts";
import {
  createReportInput,
  eventDetailDto,
  reportAcceptedDto,
  reportDetailDto,
} from "../contract.ts";
import { errorStatuses, type ExternalEnv, requireScope } from "./auth.ts";
import { PAGE_SIZE } from "./contract.ts";
import {
  pqEventPageDto,
  pqEventsQuery,
  pqKeyParam,
  pqRecordingQuery,
  pqRecordingRequestedDto,
  pqReportPageDto,
  pqReportsQuery,
} from "./pq_contract.ts";

/** What pq reads: the power-quality modules' facades. */
export interface PqDeps {
  reports: ExternalReports;
  events: ExternalEvents;
}

const APP = "app:power-quality";
const READ_DATA = "api:read:data" as const;
const WRITE_DATA = "api:write:data" as const;

const key = (c: Context<ExternalEnv>) => c.get("caller").tenant.key;
/** The creator or requester an API client is written as (reports, recordings). */
const caller = (c: Context<ExternalEnv>) => `api-client:${c.get("caller").client.clientId}`;

/** A customer without power quality gets 403, as on the screens. */
const powerQuality: MiddlewareHandler<ExternalEnv> = async (c, next) => {
  if (!c.get("caller").tenant.applications.includes(APP)) {
    throw new AppError("common.forbidden", { key: APP });
  }
  await next();
};

/** `attachment` with an ASCII fallback and the UTF-8 name (RFC 6266). */
const disposition = (name: string) =>
  `attachment; filename="${name.replace(/[^\x20-\x7e]|"/g, "_")}"; filename*=UTF-8''${
    encodeURIComponent(name)
  }`;
const fileName = (name: string, ext: string) =>
  `${name.replace(/[^\p{L}\p{N} ._-]/gu, "_").trim() || "report"}.${ext}`;

const window = (q: { page?: number | undefined; page_size?: number | undefined }) => {
  const page = q.page ?? 1;
  const size = q.page_size ?? PAGE_SIZE.default;
  return { page, size, offset: (page - 1) * size };
};

/** Adds the pq routes to the versioned app. */
export function addPq(app: Hono<ExternalEnv>, deps: PqDeps): void {
  app.get(
    "/pq/reports",
    requireScope(READ_DATA),
    powerQuality,
    validate("query", pqReportsQuery),
    doc({ summary: "Power-quality reports, newest first, paged", answer: pqReportPageDto }),
    async (c) => {
      const q = c.req.valid("query");
      const { page, size, offset } = window(q);
      const { items, total } = await deps.reports.page(key(c), {
        offset,
        limit: size,
        ...(q.status ? { status: q.status } : {}),
        ...(q.result ? { result: q.result } : {}),
        ...(q.node ? { node: q.node } : {}),
      });
      return c.json({ items, page, page_size: size, total });
    },
  );
  app.post(
    "/pq/reports",
    requireScope(WRITE_DATA),
    powerQuality,
    validate("json", createReportInput),
    errorStatuses(404, 409, 422, 503),
    doc({
      summary:
        "Creates an EN 50160 or custom report of a node's feeders; it runs in the background (202): poll its status",
      answer: reportAcceptedDto,
      status: 202,
    }),
    async (c) => c.json(await deps.reports.create(key(c), caller(c), c.req.valid("json")), 202),
  );
  app.get(
    "/pq/reports/:key",
    requireScope(READ_DATA),
    powerQuality,
    validate("param", pqKeyParam),
    doc({
      summary: "A report: status, progress, result and, once completed, the per-feeder summary",
      answer: reportDetailDto,
    }),
    // The stored summary carries the engine's working fields too: the answer is the documented
    // shape exactly (unknown keys stripped).
    async (c) =>
      c.json(reportDetailDto.parse(await deps.reports.get(key(c), c.req.valid("param").key))),
  );
  app.get(
    "/pq/reports/:key/pdf",
    requireScope(READ_DATA),
    powerQuality,
    validate("param", pqKeyParam),
    errorStatuses(409),
    doc({
      summary: "The PDF of a completed report (409, code 502, before)",
      answer: z.string().meta({ contentMediaType: "application/pdf" }),
      contentType: "application/pdf",
    }),
    async (c) => {
      const { name, pdf } = await deps.reports.pdf(key(c), c.req.valid("param").key);
      return c.body(pdf as Uint8Array<ArrayBuffer>, 200, {
        "Content-Type": "application/pdf",
        "Content-Disposition": disposition(fileName(name, "pdf")),
      });
    },
  );
  app.get(
    "/pq/reports/:key/csv",
    requireScope(READ_DATA),
    powerQuality,
    validate("param", pqKeyParam),
    errorStatuses(409),
    doc({
      summary: "The 10-minute values and results of a completed report as CSV",
      answer: z.string(),
      contentType: "text/csv",
    }),
    async (c) => {
      const { name, text } = await deps.reports.csv(key(c), c.req.valid("param").key);
      return c.body(text, 200, {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": disposition(fileName(name, "csv")),
      });
    },
  );
  addEvents(app, deps.events);
}

function addEvents(app: Hono<ExternalEnv>, events: ExternalEvents): void {
  app.get(
    "/pq/events",
    requireScope(READ_DATA),
    powerQuality,
    validate("query", pqEventsQuery),
    doc({
      summary:
        "Voltage events (dips, swells, RVC, interruptions, MSV), newest first, filtered and paged",
      answer: pqEventPageDto,
    }),
    async (c) => {
      const q = c.req.valid("query");
      const { page, size, offset } = window(q);
      const { items, total } = await events.page(key(c), q, offset, size);
      return c.json({ items, page, page_size: size, total });
    },
  );
  app.get(
    "/pq/events/:key",
    requireScope(READ_DATA),
    powerQuality,
    validate("param", pqKeyParam),
    doc({ summary: "An event with its RMS trace and recording state", answer: eventDetailDto }),
    async (c) => c.json(await events.detail(key(c), c.req.valid("param").key)),
  );
  app.post(
    "/pq/events/:key/recording",
    requireScope(WRITE_DATA),
    powerQuality,
    validate("param", pqKeyParam),
    doc({
      summary:
        "Asks the cell for the event's recording (202); poll the event's recording state, a failed one is asked again",
      answer: pqRecordingRequestedDto,
      status: 202,
    }),
    async (c) => {
      const status = await events.requestRecording(key(c), c.req.valid("param").key, caller(c));
      return c.json({ status }, 202);
    },
  );
  app.get(
    "/pq/events/:key/recording",
    requireScope(READ_DATA),
    powerQuality,
    validate("param", pqKeyParam),
    validate("query", pqRecordingQuery),
    doc({
      summary:
        "The downloaded recording: a COMTRADE zip (ASCII or binary) or CSV (404 until downloaded)",
      answer: z.string().meta({ contentMediaType: "application/zip" }),
      contentType: "application/zip",
    }),
    async (c) => {
      const file = await events.recording(
        key(c),
        c.req.valid("param").key,
        c.req.valid("query").format,
      );
      const type = file.contentType === "text/csv" ? "text/csv; charset=utf-8" : file.contentType;
      return c.body(file.body as Uint8Array<ArrayBuffer>, 200, {
        "Content-Type": type,
        "Content-Disposition": disposition(file.name),
      });
    },
  );
}
