/**
 * What the durability tests (crash, disk full) share: a free port for a server child process,
 * and the comparison of the records a server acknowledged with what its DuckDB file holds.
 */
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { releaseNativeHandles } from "../../core/mod.ts";

export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** Acknowledged records lost, stored twice or stored with another value. */
export interface StoredCheck {
  stored: number;
  lost: string[];
  duplicates: number;
  changed: string[];
}

/**
 * Compares `acked` (`cell|epoch ms|L1..L3` -> voltage) with the raw rows of the stopped
 * server's `timeseries.duckdb` in `dataDir`.
 */
export async function checkStored(
  dataDir: string,
  acked: ReadonlyMap<string, number>,
): Promise<StoredCheck> {
  const instance = await DuckDBInstance.create(join(dataDir, "timeseries.duckdb"));
  const connection = await instance.connect();
  const rows = (await connection.runAndReadAll(
    `SELECT s.cell_id, epoch_ms(r.ts), s.phase, r.u FROM raw_measurements r JOIN series s USING (series_id)`,
  )).getRows() as [string, bigint, number, number][];
  connection.closeSync();
  instance.closeSync();
  await releaseNativeHandles();
  const stored = new Map<string, number>();
  const phases = ["L1", "L2", "L3"];
  let duplicates = 0;
  for (const [cell, ts, phase, u] of rows) {
    const key = `${cell}|${Number(ts)}|${phases[phase]}`;
    if (stored.has(key)) duplicates++;
    stored.set(key, u);
  }
  return {
    stored: rows.length,
    lost: [...acked.keys()].filter((key) => !stored.has(key)),
    duplicates,
    changed: [...acked.keys()].filter((key) =>
      stored.has(key) && stored.get(key) !== acked.get(key)
    ),
  };
}

/** The rows of `queries` on the stopped server's `timeseries.duckdb` in `dataDir`. */
export async function readStored(
  dataDir: string,
  queries: readonly string[],
): Promise<unknown[][][]> {
  const instance = await DuckDBInstance.create(join(dataDir, "timeseries.duckdb"));
  const connection = await instance.connect();
  try {
    const out: unknown[][][] = [];
    for (const sql of queries) out.push((await connection.runAndReadAll(sql)).getRows());
    return out;
  } finally {
    connection.closeSync();
    instance.closeSync();
    await releaseNativeHandles();
  }
}
