/**
 * POST /ingest/v1/batches: the cell protocol of docs/ingestion-protocol.md. Size and content
 * type are checked before the body is read; the cell credential before it is parsed.
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ingestBatch, type MeasurementStore } from "../../core/mod.ts";
import type { CellsService } from "../grid/mod.ts";
import { type AppEnv, AppError } from "../kernel/mod.ts";

/** Largest accepted batch body. */
export const MAX_BATCH_BYTES = 4 * 1024 * 1024;

export interface IngestionDeps {
  cells: CellsService;
  store: MeasurementStore;
  rawLifetimeDays: number;
  now?: () => number;
}

/** Routes mounted at /ingest. */
export function ingestionRoutes(deps: IngestionDeps): Hono<AppEnv> {
  const now = deps.now ?? Date.now;
  return new Hono<AppEnv>().post(
    "/v1/batches",
    bodyLimit({
      maxSize: MAX_BATCH_BYTES,
      onError: () => Promise.reject(new AppError("common.payloadTooLarge")),
    }),
    async (c) => {
      const type = c.req.header("content-type") ?? "";
      if (!/^application\/json\s*(;|$)/i.test(type)) {
        throw new AppError("common.unsupportedMediaType");
      }
      const match = /^Bearer (\S+)$/i.exec(c.req.header("authorization") ?? "");
      const cell = match?.[1] ? await deps.cells.authenticate(match[1]) : null;
      if (!cell) throw new AppError("common.unauthorized");
      let body: unknown;
      try {
        body = await c.req.json();
      } catch {
        throw new AppError("common.badRequest", { reason: "json" });
      }
      let outcome;
      try {
        outcome = await ingestBatch(deps.store, cell, body, {
          now: now(),
          rawLifetimeDays: deps.rawLifetimeDays,
        });
      } catch (error) {
        // Nothing of the batch was committed: the cell keeps it and retries.
        c.get("logger").error("Ingest storage failed", { cellId: cell.cellId, error });
        throw new AppError("common.serviceUnavailable");
      }
      if (outcome.device && outcome.status !== 400) {
        await deps.cells.recordStatus(cell.cellId, outcome.device);
      }
      const { accepted, duplicates, rejected } = outcome;
      if (outcome.status === 400) {
        throw new AppError("common.badRequest", { rejected });
      }
      return c.json({ accepted, duplicates, rejected }, outcome.status);
    },
  );
}
