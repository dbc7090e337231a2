/**
 * Fresh databases on the PostgreSQL server of TEST_PG_ADMIN_URL. A migrated one is a copy of a
 * template database migrated once per set of migrations (`gw_tpl_<digest>`, kept between runs;
 * those of older sets are dropped), so a test does not apply every migration again.
 */
import pg from "pg";
import { migrate, migrationsKey, openDatabase } from "../../kernel/mod.ts";

/** A test's own database and how to drop it. */
export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** Any number: the advisory lock under which one process at a time builds the template. */
const TEMPLATE_LOCK = 4_242_104;

/**
 * Creates `<prefix>_<random>`: a copy of the migrated template, or empty with
 * `{ migrated: false }` (tests of the migrations themselves).
 */
export async function postgresTestDatabase(
  prefix: string,
  opts: { migrated?: boolean } = {},
): Promise<TestDatabase> {
  const adminUrl = Deno.env.get("TEST_PG_ADMIN_URL");
  if (!adminUrl) throw new Error("TEST_PG_ADMIN_URL is not set: run the suite through npm test");
  const name = `${prefix}_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    if (opts.migrated === false) await admin.query(`CREATE DATABASE ${name}`);
    else await copyTemplate(admin, adminUrl, name);
  } finally {
    await admin.end();
  }
  return { url: urlOf(adminUrl, name), drop: () => dropDatabase(adminUrl, name) };
}

async function copyTemplate(admin: pg.Client, adminUrl: string, name: string): Promise<void> {
  const template = `gw_tpl_${await migrationsKey()}`;
  await admin.query("SELECT pg_advisory_lock($1)", [TEMPLATE_LOCK]);
  try {
    const found = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [template]);
    if (found.rowCount === 0) await buildTemplate(admin, adminUrl, template);
  } finally {
    await admin.query("SELECT pg_advisory_unlock($1)", [TEMPLATE_LOCK]);
  }
  // The template's last connection may still be closing on the server (55006: in use).
  for (let attempt = 1;; attempt++) {
    try {
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== "55006" || attempt === 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

async function buildTemplate(admin: pg.Client, adminUrl: string, template: string) {
  const stale = await admin.query<{ datname: string }>(
    "SELECT datname FROM pg_database WHERE datname LIKE 'gw\\_tpl\\_%' AND datname <> $1",
    [template],
  );
  for (const { datname } of stale.rows) {
    await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`).catch(() => {});
  }
  await admin.query(`CREATE DATABASE ${template}`);
  try {
    const database = await openDatabase({ url: urlOf(adminUrl, template), dataDir: ":memory:" });
    try {
      await migrate(database);
    } finally {
      await database.close();
    }
  } catch (error) {
    await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`).catch(() => {});
    throw error;
  }
}

function urlOf(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * FORCE cannot end a backend of another role (e.g. an autovacuum worker that just started on
 * the new database): such a drop is tried again, and a database left behind is no failure of
 * the test that used it.
 */
async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    for (let attempt = 1;; attempt++) {
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        return;
      } catch (error) {
        if (attempt === 10) {
          console.warn(`Test database ${name} left behind: ${error}`);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 300 * attempt));
      }
    }
  } finally {
    await c.end();
  }
}
