/**
 * POST /ingest/v1/batches: the cell protocol of docs/ingestion-protocol.md. Size and content
 * type are checked before the body is read; the cell credential before it is parsed.
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ingestBatch, type IngestOutcome, type MeasurementStore } from "../../core/mod.ts";
import type { CellsService } from "../grid/mod.ts";
import { type AppEnv, AppError, doc } from "../../kernel/mod.ts";

/** Largest accepted batch body. */
export const MAX_BATCH_BYTES = 4 * 1024 * 1024;
/**
 * A cell's device status (and its "last seen") is written when it changes, else at most this
 * often: one database write per batch of every cell would cost more than storing the batch.
 */
export const STATUS_EVERY_MS = 60_000;

export interface IngestionDeps {
  cells: CellsService;
  store: MeasurementStore;
  rawLifetimeDays: number;
  now?: () => number;
}

/** Routes mounted at /ingest. */
export function ingestionRoutes(deps: IngestionDeps): Hono<AppEnv> {
  const now = deps.now ?? Date.now;
  const recorded = new Map<string, { status: string; at: number }>();
  const recordStatus = async (cellId: string, device: NonNullable<IngestOutcome["device"]>) => {
    const status = JSON.stringify(device);
    const at = now();
    const last = recorded.get(cellId);
    if (last && last.status === status && at - last.at < STATUS_EVERY_MS) return;
    await deps.cells.recordStatus(cellId, device);
    recorded.set(cellId, { status, at });
  };
  return new Hono<AppEnv>().post(
    "/v1/batches",
    doc({
      summary: "A cell's batch (its own bearer credential; docs/ingestion-protocol.md): " +
        "200 or 207 after the durable write",
    }),
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
      if (outcome.device && outcome.status !== 400) await recordStatus(cell.cellId, outcome.device);
      const { accepted, duplicates, rejected } = outcome;
      if (outcome.status === 400) {
        throw new AppError("common.badRequest", { rejected });
      }
      return c.json({ accepted, duplicates, rejected }, outcome.status);
    },
  );
}
