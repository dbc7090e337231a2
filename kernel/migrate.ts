/**
 * Applies the SQL files of db/migrations in name order, each once and inside its own
 * transaction, so a failed migration leaves the database as it was.
 */
import { readdir, readFile } from "node:fs/promises";
import { sql } from "drizzle-orm";
import type { Database } from "./db.ts";

const MIGRATIONS_DIR = new URL("../db/migrations/", import.meta.url);

/** Runs every pending migration; returns the names applied by this call. */
export async function migrate(database: Database, dir: URL = MIGRATIONS_DIR): Promise<string[]> {
  await database.exec(
    "CREATE TABLE IF NOT EXISTS public.schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
  );
  const files = (await readdir(dir)).filter((f) => f.endsWith(".sql")).sort();
  const applied: string[] = [];
  for (const name of files) {
    const done = await database.db.execute(
      sql`SELECT 1 FROM public.schema_migrations WHERE name = ${name}`,
    );
    if (rowCount(done) > 0) continue;
    const text = await readFile(new URL(name, dir), "utf8");
    const quoted = name.replaceAll("'", "''");
    // One simple-protocol round trip: the statements and the bookkeeping commit together.
    await database.exec(
      `BEGIN;\n${text}\n;INSERT INTO public.schema_migrations (name) VALUES ('${quoted}');\nCOMMIT;`,
    ).catch(async (error) => {
      await database.exec("ROLLBACK").catch(() => {});
      throw new Error(`Cannot apply migration ${name}: ${(error as Error).message}`);
    });
    applied.push(name);
  }
  return applied;
}

function rowCount(result: unknown): number {
  const r = result as { rows?: unknown[]; length?: number };
  return r.rows?.length ?? r.length ?? 0;
}
