/**
 * The peer a user would pick instead: PostgreSQL 15 on this machine through the `pg` driver,
 * in a database created and dropped by the run. Same raw rows (simulator, fixed seed), ingest
 * by multi-row INSERT with 8 connections (synchronous commit, one statement per cell batch),
 * the same 10-minute GROUP BY, and the latest value per series with DISTINCT ON.
 * COPY FROM STDIN needs `pg-copy-streams`, which the project does not install: not measured.
 */
import pg from "pg";
import { allocateColumns, generateColumns, WINDOW_MS } from "../../core/simulator/mod.ts";
import type { Sizes } from "./lib/options.ts";
import {
  generatedSlotSql,
  insertSql,
  paramsByCell,
  PG_DDL,
  pgAggregateSql,
  pgLatestSql,
} from "./lib/pg_rows.ts";
import type { Result } from "./lib/report.ts";
import { perSecond, summarize } from "./lib/stats.ts";
import { mapBounded, timeOnce, timeRepeated } from "./lib/timing.ts";
import { FIXED_START, lvgridCell, SEED } from "./lib/workload.ts";

/** The administrator URL: TEST_PG_ADMIN_URL as scripts/test.sh sets it, else the local default. */
export function adminUrl(): string {
  return Deno.env.get("TEST_PG_ADMIN_URL") ??
    "postgres://gridwatch_test:gridwatch_test@127.0.0.1:5432/postgres";
}

/** Sends every cell's rows of `windows` as one INSERT per cell; returns rows and send time. */
async function ingest(pool: pg.Pool, cells: number, windows: number[], concurrency: number) {
  const chunkCells = Math.max(1, Math.floor(100_000 / (24 * windows.length)));
  const cols = allocateColumns(chunkCells * 24 * windows.length);
  let rows = 0;
  let ms = 0;
  for (let first = 0; first < cells; first += chunkCells) {
    const chunk = Array.from(
      { length: Math.min(chunkCells, cells - first) },
      (_, k) => lvgridCell(first + k),
    );
    let count = 0;
    for (const w of windows) count += generateColumns(chunk, w, SEED, cols, count);
    const batches = [...paramsByCell(cols, count, first).values()];
    ms += await timeOnce(() =>
      mapBounded(batches, concurrency, (b) => pool.query(insertSql(b.rows), b.params))
    );
    rows += count;
  }
  return perSecond(rows, ms);
}

/**
 * Runs `fn` with the URL of a new database on the local PostgreSQL server, dropped after it; null
 * (and a line saying so) when no server answers.
 */
export async function withTemporaryDatabase<T>(
  fn: (url: string) => Promise<T>,
): Promise<T | null> {
  const admin = new pg.Client({ connectionString: adminUrl() });
  try {
    await admin.connect();
  } catch (error) {
    console.log(`  PostgreSQL not available (${(error as Error).message}): skipped`);
    return null;
  }
  const name = `gw_bench_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  try {
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(adminUrl());
    url.pathname = `/${name}`;
    return await fn(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

/** Runs the PostgreSQL figures; an unreachable server gives one clear line and no rows. */
export async function benchPostgres(sizes: Sizes): Promise<Result[]> {
  return await withTemporaryDatabase((url) => benchPostgresIn(url, sizes)) ?? [];
}

async function benchPostgresIn(url: string, sizes: Sizes): Promise<Result[]> {
  const pool = new pg.Pool({ connectionString: url, max: sizes.concurrency });
  try {
    const version = (await pool.query("SHOW server_version")).rows[0].server_version;
    for (const statement of PG_DDL) await pool.query(statement);
    const at = (minutes: number) => FIXED_START + minutes * 60_000;
    const single = await ingest(pool, sizes.pgCellsPerWindowBatch, [at(0), at(0) + WINDOW_MS], 8);
    const windows = Array.from({ length: 30 }, (_, w) => at(10) + w * WINDOW_MS);
    const multi = await ingest(pool, sizes.pgCellsMultiWindow, windows, sizes.concurrency);

    const slot = new Date(at(60)).toISOString().slice(0, 19);
    await pool.query(generatedSlotSql(sizes.pgAggregationCells, slot));
    await pool.query("ANALYZE raw_measurements");
    const aggregateMs = await timeOnce(() => pool.query(pgAggregateSql(slot)));
    const latestNodes = Math.min(sizes.statusNodes, sizes.pgAggregationCells);
    const since = new Date(at(70) - 80_000).toISOString().slice(0, 19);
    const latest = summarize(
      await timeRepeated(() => pool.query(pgLatestSql(latestNodes, since)), {
        warmup: 1,
        repeats: 5,
      }),
    );
    console.log(`  PostgreSQL ${version}, database ${name}`);
    return [
      {
        name: "PostgreSQL multi-row INSERT, 1 window/batch",
        value: single,
        unit: "rows/s",
        key: "pg.single",
        basis: { kind: "engine", rowsPerSec: single },
      },
      {
        name: "PostgreSQL multi-row INSERT, 30 windows/batch",
        value: multi,
        unit: "rows/s",
        key: "pg.multi",
        basis: { kind: "engine", rowsPerSec: multi },
      },
      {
        name: `PostgreSQL 10-minute GROUP BY, ${sizes.pgAggregationCells} cells`,
        value: aggregateMs,
        unit: "ms",
        key: "pg.aggregate",
        rows: sizes.pgAggregationCells * 24 * 30,
      },
      {
        name: `PostgreSQL latest values (DISTINCT ON), ${latestNodes} nodes, p50`,
        value: latest.p50,
        unit: "ms",
        key: "pg.latest",
        rows: latestNodes,
      },
    ];
  } finally {
    await pool.end();
  }
}
