/**
 * The pqe calls (spec 7 "/pqe/electrical-works"; docs/contracts.md "Power-quality events:
 * /pqe"), for holders of app:power-quality.
 */
import { type Context, Hono } from "hono";
import { z } from "zod";
import type { CellsService } from "../grid/mod.ts";
import { type AppEnv, AppError, doc, requireApp, validate } from "../../kernel/mod.ts";
import {
  eventDetailDto,
  eventFilterQuery,
  eventListQuery,
  eventPageDto,
  eventPointsDto,
  eventTablesDto,
  eventWorksDto,
  gridEventPageDto,
  gridEventsQuery,
  recordingFileQuery,
  recordingListQuery,
  recordingPageDto,
  recordingStateDto,
} from "./contract.ts";
import { recordingBaseName, recordingCsv, recordingZip } from "./recording_files.ts";
import { MAX_RECORDING_BYTES, type RecordingsService } from "./recordings.ts";
import type { VoltageEventsService } from "./service.ts";

/** Routes mounted at /pqe (behind authentication). */
export function voltageEventsRoutes(
  service: VoltageEventsService,
  recordings: RecordingsService,
): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("*", requireApp("app:power-quality"), async (c, next) => {
    // A customer whose applications do not list power quality has no events to show.
    if (!c.get("tenant").applications.includes("app:power-quality")) {
      throw new AppError("common.forbidden", { key: "app:power-quality" });
    }
    await next();
  });
  return app
    .get(
      "/electrical-works",
      doc({
        summary: "Electrical works and nodes with their recent events",
        answer: eventWorksDto,
      }),
      async (c) => c.json(await service.works(c.get("tenant").key)),
    )
    .get(
      "/events",
      validate("query", eventListQuery),
      doc({ summary: "Voltage events, 12 per page, newest first", answer: eventPageDto }),
      async (c) => c.json(await service.list(c.get("tenant").key, c.req.valid("query"))),
    )
    .get(
      "/events/tables",
      validate("query", eventFilterQuery),
      doc({ summary: "EN 50160 dip and swell tables with counts", answer: eventTablesDto }),
      async (c) => c.json(await service.tables(c.get("tenant").key, c.req.valid("query"))),
    )
    .get(
      "/events/points",
      validate("query", eventFilterQuery),
      doc({ summary: "Magnitude-duration points of the events", answer: eventPointsDto }),
      async (c) => c.json(await service.points(c.get("tenant").key, c.req.valid("query"))),
    )
    .get(
      "/events/:key",
      doc({ summary: "An event with its RMS trace", answer: eventDetailDto }),
      async (c) => c.json(await service.detail(c.get("tenant").key, c.req.param("key"))),
    )
    .post(
      "/events/:key/recording",
      doc({
        summary: "Ask the cell for the event's recording (202; a failed one is asked again)",
        answer: recordingStateDto.pick({ status: true }),
        status: 202,
      }),
      async (c) => {
        const key = c.req.param("key");
        const status = await recordings.request(c.get("tenant").key, key, principalId(c));
        return c.json({ status }, 202);
      },
    )
    .get(
      "/events/:key/recording",
      validate("query", recordingFileQuery),
      doc({ summary: "The downloaded recording: COMTRADE zip (ASCII or binary) or CSV" }),
      async (c) => {
        const { format = "comtrade-ascii" } = c.req.valid("query");
        const { event, place, file } = await recordings.file(
          c.get("tenant").key,
          c.req.param("key"),
        );
        const base = recordingBaseName(event.cellId, event.startMs);
        if (format === "csv") {
          return c.body(recordingCsv(file), 200, {
            "content-type": "text/csv; charset=utf-8",
            "content-disposition": `attachment; filename="${base}.csv"`,
          });
        }
        const zip = recordingZip(
          file,
          place,
          event.startMs,
          format === "comtrade-binary" ? "BINARY" : "ASCII",
        );
        return c.body(zip as Uint8Array<ArrayBuffer>, 200, {
          "content-type": "application/zip",
          "content-disposition": `attachment; filename="${base}.zip"`,
        });
      },
    )
    .get(
      "/grid-events",
      validate("query", gridEventsQuery),
      doc({
        summary: "Events of different cells within one second, grouped; MV or local",
        answer: gridEventPageDto,
      }),
      async (c) => c.json(await service.gridEvents(c.get("tenant").key, c.req.valid("query"))),
    )
    .get(
      "/recordings",
      validate("query", recordingListQuery),
      doc({
        summary: "Requested and downloaded recordings, 12 per page",
        answer: recordingPageDto,
      }),
      async (c) => {
        const { page = 1, status } = c.req.valid("query");
        return c.json(await recordings.list(c.get("tenant").key, page, status));
      },
    );
}

const principalId = (c: Context<AppEnv>) => c.get("principal").userId;

const failureBody = z.strictObject({ reason: z.enum(["NOT_FOUND", "ERROR"]) });

/**
 * The cell side (docs/cell-configuration.md, "Commands"), mounted at /ingest: a cell uploads the
 * recording a command asked for, or says why it cannot, with its own credential.
 */
export function recordingCellRoutes(
  deps: { cells: Pick<CellsService, "authenticate">; recordings: RecordingsService },
): Hono<AppEnv> {
  const cellOf = async (c: Context<AppEnv>) => {
    const match = /^Bearer (\S+)$/i.exec(c.req.header("authorization") ?? "");
    const cell = match?.[1] ? await deps.cells.authenticate(match[1]) : null;
    if (!cell) throw new AppError("common.unauthorized");
    return cell.cellId;
  };
  return new Hono<AppEnv>()
    .put(
      "/v1/recordings/:id",
      doc({
        summary:
          "A cell uploads the recording a command asked for (X-Content-SHA256); 521 if corrupted",
        answer: null,
        status: 204,
      }),
      async (c) => {
        const cellId = await cellOf(c);
        const bytes = new Uint8Array(await c.req.arrayBuffer());
        if (bytes.length > MAX_RECORDING_BYTES) throw new AppError("common.payloadTooLarge");
        const outcome = await deps.recordings.upload(
          cellId,
          c.req.param("id"),
          bytes,
          c.req.header("x-content-sha256") ?? null,
        );
        if (!outcome.accepted) throw new AppError("pq.dataFilesCorrupted");
        return c.body(null, 204);
      },
    )
    .post(
      "/v1/recordings/:id/failure",
      doc({
        summary: "A cell cannot upload a recording: NOT_FOUND (515) or ERROR (516)",
        answer: null,
        status: 204,
      }),
      async (c) => {
        const cellId = await cellOf(c);
        const parsed = failureBody.safeParse(await c.req.json().catch(() => null));
        if (!parsed.success) throw new AppError("common.badRequest");
        await deps.recordings.failure(cellId, c.req.param("id"), parsed.data.reason);
        return c.body(null, 204);
      },
    );
}
