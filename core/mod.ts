/**
 * @module
 * Streaming analytics core: the DuckDB time-series store (and, in later issues, ingestion,
 * 10-minute aggregates, grid-status evaluation and EN 50160). Imports the kernel only.
 */
export { openTimeSeriesStore, type TimeSeriesStore } from "./time_series_store.ts";
