/**
 * @module
 * Ingestion: the HTTP face of the cell protocol. Authenticates cells through the grid module and
 * hands their batches to the streaming core; collects the cells' device status.
 */
import type { Logger, PlatformModule } from "../../kernel/mod.ts";
import { type IngestionDeps, ingestionRoutes } from "./routes.ts";
import { StatusRecorder } from "./status_recorder.ts";

export { type IngestionDeps, MAX_BATCH_BYTES } from "./routes.ts";
export { STATUS_EVERY_MS, StatusRecorder } from "./status_recorder.ts";

/** The ingestion module; `statuses` writes the cells' device status (tests flush it). */
export interface IngestionModule extends PlatformModule {
  statuses: StatusRecorder;
}

/** Builds the ingestion module: the cell protocol at /ingest (cells authenticate themselves). */
export function ingestionModule(deps: IngestionDeps & { logger: Logger }): IngestionModule {
  const statuses = new StatusRecorder(
    (entries) => deps.cells.recordStatuses(entries),
    (error) => deps.logger.error("Device status write failed", { error }),
  );
  return {
    name: "ingestion",
    statuses,
    public: [{ prefix: "/ingest", routes: ingestionRoutes(deps, statuses) }],
    start: () => statuses.start(),
    close: () => statuses.stop(),
  };
}
