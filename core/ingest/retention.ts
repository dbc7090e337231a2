/**
 * The raw-data lifetime (the spec's "data lifetime" for power quality): 20-s values older than
 * it are deleted; 10-minute aggregates and rollups stay, so long-range screens keep their data.
 */
import type { DuckDBConnection } from "@duckdb/node-api";

/** Deletes raw values older than `lifetimeDays` before `now`; returns how many rows went. */
export async function pruneRaw(
  connection: DuckDBConnection,
  lifetimeDays: number,
  now = Date.now(),
): Promise<number> {
  const limit = (now - lifetimeDays * 86_400_000) * 1000;
  const result = await connection.run(
    `DELETE FROM raw_measurements WHERE ts < make_timestamp(${limit})`,
  );
  return Number(result.rowsChanged);
}
