/**
 * Applies the SQL files of db/migrations in name order, each once and inside its own
 * transaction, so a failed migration leaves the database as it was.
 */
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { sql } from "drizzle-orm";
import { type Database, isNewCluster, openDatabase, preparedCluster, templateDir } from "./db.ts";

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

/**
 * Opens the database as {@link openDatabase} does and applies the pending migrations. During a
 * test run (`GRIDWATCH_PGLITE_TEMPLATES`), a new PGlite cluster starts from one migrated once
 * for the run, so nothing is left to apply.
 */
export async function openMigratedDatabase(
  opts: { url?: string | undefined; dataDir: string },
): Promise<{ database: Database; applied: string[] }> {
  const templates = templateDir();
  const initial = !opts.url && templates && isNewCluster(opts.dataDir)
    ? await preparedCluster(templates, `migrated-${await migrationsKey()}`, async (database) => {
      await migrate(database);
    })
    : undefined;
  const database = await openDatabase({ ...opts, initial });
  try {
    return { database, applied: await migrate(database) };
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }
}

/** A digest of every migration's name and text. */
export async function migrationsKey(dir: URL = MIGRATIONS_DIR): Promise<string> {
  const hash = createHash("sha256");
  for (const name of (await readdir(dir)).filter((f) => f.endsWith(".sql")).sort()) {
    hash.update(name).update(await readFile(new URL(name, dir)));
  }
  return hash.digest("hex").slice(0, 16);
}

function rowCount(result: unknown): number {
  const r = result as { rows?: unknown[]; length?: number };
  return r.rows?.length ?? r.length ?? 0;
}
