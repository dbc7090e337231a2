/**
 * Relational database: drizzle-orm (PostgreSQL dialect) on embedded PGlite by default, or on a
 * PostgreSQL server when DATABASE_URL is set. Both expose the same drizzle API to modules.
 */
import { mkdir } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";

/** The drizzle database handle modules query through. */
export type Db = PgDatabase<PgQueryResultHKT, Record<string, never>>;

/** An open relational database. */
export interface Database {
  readonly kind: "pglite" | "postgres";
  readonly db: Db;
  /** Runs SQL text that may hold several statements and no parameters (migrations). */
  exec(sqlText: string): Promise<void>;
  close(): Promise<void>;
}

/** Opens PostgreSQL at `url` when given, else PGlite in `${dataDir}/pg` (or in memory for ":memory:"). */
export async function openDatabase(
  opts: { url?: string | undefined; dataDir: string },
): Promise<Database> {
  if (opts.url) {
    const pool = new pg.Pool({ connectionString: opts.url, max: 10 });
    await pool.query("select 1");
    return {
      kind: "postgres",
      db: drizzlePg(pool) as unknown as Db,
      exec: async (text) => {
        await pool.query(text);
      },
      close: () => pool.end(),
    };
  }
  let client: PGlite;
  if (opts.dataDir === ":memory:") client = new PGlite();
  else {
    await mkdir(`${opts.dataDir}/pg`, { recursive: true });
    client = new PGlite(`${opts.dataDir}/pg`);
  }
  await client.waitReady;
  return {
    kind: "pglite",
    db: drizzlePglite(client) as unknown as Db,
    exec: async (text) => {
      await client.exec(text);
    },
    close: () => client.close(),
  };
}
