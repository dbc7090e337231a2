/**
 * @module
 * Ingestion: the HTTP face of the cell protocol. Authenticates cells through the grid module and
 * hands their batches to the streaming core.
 */
export { ingestionRoutes, MAX_BATCH_BYTES } from "./routes.ts";
