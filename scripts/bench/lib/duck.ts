/** File-backed DuckDB databases in the run's temporary directory. */
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { DDL } from "../../../core/ingest/schema.ts";
import { loadConfig } from "../../../kernel/mod.ts";

/** An open DuckDB file. */
export interface DuckFile {
  connection: DuckDBConnection;
  close(): void;
}

/** Opens (creating) `${dir}/${name}.duckdb` with the given memory limit. */
export async function openDuckFile(
  dir: string,
  name: string,
  memoryLimit: string,
): Promise<DuckFile> {
  const instance = await DuckDBInstance.create(`${dir}/${name}.duckdb`, {
    memory_limit: memoryLimit,
  });
  const connection = await instance.connect();
  return {
    connection,
    close: () => {
      connection.closeSync();
      instance.closeSync();
    },
  };
}

/** The single value of a one-row, one-column query as a number. */
export async function scalar(connection: DuckDBConnection, sql: string): Promise<number> {
  const result = await connection.runAndReadAll(sql);
  return Number(result.getRows()[0]?.[0]);
}

/** core's `raw_measurements` DDL, creating a table of the same shape under `name`. */
export function rawTableDdl(name = "raw_measurements"): string {
  const ddl = DDL.find((s) => s.includes("TABLE IF NOT EXISTS raw_measurements ("));
  if (!ddl) throw new Error("Cannot find the raw_measurements DDL in core/ingest/schema.ts");
  return ddl.replace("raw_measurements", name);
}

/** The DuckDB memory limit the platform uses by default (DUCKDB_MEMORY_LIMIT). */
export function platformMemoryLimit(): string {
  return loadConfig({}).duckdbMemoryLimit;
}
