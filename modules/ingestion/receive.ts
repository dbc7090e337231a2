/**
 * One batch of an authenticated cell from its raw bytes to its answer: UTF-8 and JSON, the
 * protocol's validation, the durable write and the device status. Shared by the HTTP route and
 * the MQTT subscriber, so both transports answer alike (docs/ingestion-protocol.md).
 */
import { ingestBatch, type IngestOutcome } from "../../core/mod.ts";
import type { CellIdentity } from "../grid/mod.ts";
import { AppError } from "../../kernel/mod.ts";
import type { IngestionDeps } from "./routes.ts";
import type { StatusRecorder } from "./status_recorder.ts";

/** The protocol's answer to a stored (or partly refused) batch. */
export interface BatchAnswer {
  status: 200 | 207 | 422;
  body: Pick<IngestOutcome, "accepted" | "duplicates" | "rejected">;
}

const decoder = new TextDecoder("utf-8", { fatal: true });

/**
 * Parses, validates and stores one batch. Throws AppError 400 (not JSON, not a batch) and 503
 * (not stored: the cell resends it); `storageFailed` hears why a write failed.
 */
export async function receiveBatch(
  deps: Pick<IngestionDeps, "store" | "rawLifetimeDays" | "now">,
  statuses: StatusRecorder,
  cell: CellIdentity,
  bytes: Uint8Array,
  storageFailed: (error: unknown) => void,
): Promise<BatchAnswer> {
  let body: unknown;
  try {
    body = JSON.parse(decoder.decode(bytes));
  } catch {
    throw new AppError("common.badRequest", { reason: "json" });
  }
  let outcome: IngestOutcome;
  try {
    outcome = await ingestBatch(deps.store, cell, body, {
      now: (deps.now ?? Date.now)(),
      rawLifetimeDays: deps.rawLifetimeDays,
    });
  } catch (error) {
    // Nothing of the batch was stored: the cell keeps it and resends it.
    storageFailed(error);
    throw new AppError("common.serviceUnavailable");
  }
  if (outcome.device && outcome.status !== 400) statuses.note(cell.cellId, outcome.device);
  const { accepted, duplicates, rejected } = outcome;
  if (outcome.status === 400) throw new AppError("common.badRequest", { rejected });
  return { status: outcome.status, body: { accepted, duplicates, rejected } };
}
