/**
 * Where the platform's resident memory goes, for the ingest benchmarks: the process's RSS
 * split into the V8 heap, ArrayBuffers outside it (of which PGlite's wasm memory), DuckDB's own
 * accounting (`duckdb_memory()`, per tag) and the ingest's queues (journaled groups waiting for
 * DuckDB, the journal's write queue), and what none of them accounts for (code, the
 * allocators' free lists, DuckDB memory outside its buffer manager, thread stacks).
 */
import v8 from "node:v8";
import type { Platform } from "../../main.ts";

const MB = 2 ** 20;

/** One snapshot, in bytes. */
export interface MemoryBreakdown {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  /** The V8 heap's spaces holding 1 MB or more: name, size, used. */
  spaces: [string, number, number][];
  /** ArrayBuffers and other memory V8 holds outside its heap (not wasm memory: measured). */
  external: number;
  /** PGlite's WebAssembly memory (not part of `external`). */
  pgliteWasm: number;
  /** duckdb_memory(): bytes in memory per tag (only tags above 0). */
  duckdb: Record<string, number>;
  /** The measurement store's journaled groups not yet in DuckDB (estimated bytes, rows). */
  backlogBytes: number;
  backlogRows: number;
}

/** Takes a snapshot of the platform's memory (after a garbage collection when exposed). */
export async function memoryBreakdown(platform: Platform): Promise<MemoryBreakdown> {
  (globalThis as { gc?: () => void }).gc?.();
  const usage = Deno.memoryUsage();
  const client = (platform.services.db as unknown as {
    $client?: { mod?: { HEAPU8?: Uint8Array } };
  }).$client;
  const rows = (await platform.services.analytics.runAndReadAll(
    "SELECT tag, memory_usage_bytes FROM duckdb_memory() WHERE memory_usage_bytes > 0",
  )).getRows() as [string, bigint | number][];
  const backlog = platform.services.measurements.backlog;
  return {
    rss: usage.rss,
    heapUsed: usage.heapUsed,
    heapTotal: usage.heapTotal,
    spaces: v8.getHeapSpaceStatistics().filter((space) => space.space_size >= MB)
      .map((
        space,
      ) => [space.space_name.replace(/_space$/, ""), space.space_size, space.space_used_size]),
    external: usage.external,
    pgliteWasm: client?.mod?.HEAPU8?.byteLength ?? NaN,
    duckdb: Object.fromEntries(rows.map(([tag, bytes]) => [tag, Number(bytes)])),
    backlogBytes: backlog.bytes,
    backlogRows: backlog.rows,
  };
}

/** One line of a snapshot, in MB. */
export function formatBreakdown(label: string, m: MemoryBreakdown): string {
  const duck = Object.values(m.duckdb).reduce((a, b) => a + b, 0);
  const wasm = Number.isNaN(m.pgliteWasm) ? 0 : m.pgliteWasm;
  const rest = m.rss - m.heapTotal - m.external - wasm - duck;
  const tags = Object.entries(m.duckdb).sort((a, b) => b[1] - a[1])
    .map(([tag, bytes]) => `${tag} ${(bytes / MB).toFixed(0)}`).join(", ");
  const mb = (bytes: number) => (bytes / MB).toFixed(0);
  const spaces = m.spaces.map(([name, size, used]) => `${name} ${mb(size)}/${mb(used)}`).join(", ");
  return `  memory ${label}: RSS ${mb(m.rss)} MB = V8 heap ${mb(m.heapTotal)} (used ${
    mb(m.heapUsed)
  }; ${spaces}) + external ${mb(m.external)}${wasm ? ` + PGlite wasm ${mb(wasm)}` : ""} + DuckDB ${
    mb(duck)
  } (${tags || "none"}) + unaccounted ${mb(rest)}; ingest backlog ${m.backlogRows} rows, ${
    mb(m.backlogBytes)
  } MB`;
}
