/**
 * POST /ingest/v1/batches: the cell protocol of docs/ingestion-protocol.md. Size and content
 * type are checked before the body is read; the cell credential before it is parsed. This is
 * the hottest route of the product (a utility of 5,000 cells sends 250 batches a second), so it
 * reads the body in one piece and leaves device-status writes to the StatusRecorder.
 */
import { Hono, type MiddlewareHandler } from "hono";
import type { MeasurementStore } from "../../core/mod.ts";
import type { CellsService } from "../grid/mod.ts";
import { type AppEnv, AppError, readLimited, withDoc } from "../../kernel/mod.ts";
import { receiveBatch } from "./receive.ts";
import type { StatusRecorder } from "./status_recorder.ts";

/** Largest accepted batch body. */
export const MAX_BATCH_BYTES = 4 * 1024 * 1024;

export interface IngestionDeps {
  cells: Pick<CellsService, "authenticate" | "recordStatuses">;
  store: MeasurementStore;
  rawLifetimeDays: number;
  now?: () => number;
}

/** Routes mounted at /ingest. */
export function ingestionRoutes(deps: IngestionDeps, statuses: StatusRecorder): Hono<AppEnv> {
  const receive: MiddlewareHandler<AppEnv> = async (c) => {
    const type = c.req.header("content-type") ?? "";
    if (!/^application\/json\s*(;|$)/i.test(type)) {
      throw new AppError("common.unsupportedMediaType");
    }
    const match = /^Bearer (\S+)$/i.exec(c.req.header("authorization") ?? "");
    const cell = match?.[1] ? await deps.cells.authenticate(match[1]) : null;
    if (!cell) throw new AppError("common.unauthorized");
    const answer = await receiveBatch(
      deps,
      statuses,
      cell,
      await readLimited(c.req.raw, MAX_BATCH_BYTES),
      (error) => c.get("logger").error("Ingest storage failed", { cellId: cell.cellId, error }),
    );
    return c.json(answer.body, answer.status);
  };
  // Documented on the handler itself: no extra middleware on the hottest route.
  return new Hono<AppEnv>().post(
    "/v1/batches",
    withDoc(receive, {
      summary: "A cell's batch (its own bearer credential; docs/ingestion-protocol.md): " +
        "200 or 207 after the durable write",
    }),
  );
}
