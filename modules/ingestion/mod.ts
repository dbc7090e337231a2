/**
 * @module
 * Ingestion: the HTTP face of the cell protocol. Authenticates cells through the grid module and
 * hands their batches to the streaming core.
 */
import type { PlatformModule } from "../../kernel/mod.ts";
import { type IngestionDeps, ingestionRoutes } from "./routes.ts";

export { type IngestionDeps, MAX_BATCH_BYTES } from "./routes.ts";

/** Builds the ingestion module: the cell protocol at /ingest (cells authenticate themselves). */
export function ingestionModule(deps: IngestionDeps): PlatformModule {
  return { name: "ingestion", public: [{ prefix: "/ingest", routes: ingestionRoutes(deps) }] };
}
