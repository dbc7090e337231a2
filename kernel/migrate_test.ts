import assert from "node:assert/strict";
import { readdir, writeFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { sql } from "drizzle-orm";
import { type Database, openDatabase } from "./db.ts";
import { migrate } from "./migrate.ts";

async function rows<T>(database: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = await database.db.execute(query) as unknown as { rows: T[] };
  return result.rows;
}

async function appliedNames(database: Database): Promise<string[]> {
  const result = await rows<{ name: string }>(
    database,
    sql`SELECT name FROM public.schema_migrations ORDER BY name`,
  );
  return result.map((r) => r.name);
}

async function schemaExists(database: Database, name: string): Promise<boolean> {
  const result = await rows<{ n: number }>(
    database,
    sql`SELECT count(*)::int AS n FROM information_schema.schemata WHERE schema_name = ${name}`,
  );
  return result[0]?.n === 1;
}

Deno.test("migrate() applies the repository's migrations once, then nothing", async () => {
  const database = await openDatabase({ dataDir: ":memory:" });
  try {
    const repoDir = new URL("../db/migrations/", import.meta.url);
    const expected = (await readdir(repoDir)).filter((f) => f.endsWith(".sql")).sort();
    assert.ok(expected.length > 0);
    assert.deepEqual(await migrate(database), expected);
    assert.deepEqual(await appliedNames(database), expected);
    assert.equal(await schemaExists(database, "customers"), true);
    assert.deepEqual(await migrate(database), []);
  } finally {
    await database.close();
  }
});

Deno.test("migrate() rolls a failing migration back whole and names its file", async () => {
  const dir = await Deno.makeTempDir({ prefix: "migrate_test_" });
  const dirUrl = pathToFileURL(`${dir}/`);
  const database = await openDatabase({ dataDir: ":memory:" });
  try {
    await writeFile(`${dir}/0001_base.sql`, "CREATE SCHEMA base; CREATE TABLE base.t (id int);");
    // The first two statements succeed; the third fails at run time, after them.
    await writeFile(
      `${dir}/0002_broken.sql`,
      "CREATE SCHEMA partial;\nCREATE TABLE partial.t (id int);\nINSERT INTO partial.missing VALUES (1);",
    );
    await writeFile(`${dir}/0003_after.sql`, "CREATE SCHEMA after_broken;");
    await assert.rejects(migrate(database, dirUrl), (error: Error) => {
      assert.match(error.message, /^Cannot apply migration 0002_broken\.sql: /);
      assert.match(error.message, /partial\.missing/);
      return true;
    });
    assert.deepEqual(await appliedNames(database), ["0001_base.sql"]);
    assert.equal(await schemaExists(database, "base"), true);
    assert.equal(await schemaExists(database, "partial"), false);
    assert.equal(await schemaExists(database, "after_broken"), false);

    // Once the file is fixed the same database carries on where it stopped.
    await writeFile(`${dir}/0002_broken.sql`, "CREATE SCHEMA partial;");
    assert.deepEqual(await migrate(database, dirUrl), ["0002_broken.sql", "0003_after.sql"]);
    assert.equal(await schemaExists(database, "after_broken"), true);
  } finally {
    await database.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("migrate() refuses a migration with a syntax error and records nothing for it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "migrate_test_" });
  const database = await openDatabase({ dataDir: ":memory:" });
  try {
    await writeFile(`${dir}/0001_typo.sql`, "CREATE SCHEMA typo; CREAT TABLE typo.t (id int);");
    await assert.rejects(migrate(database, pathToFileURL(`${dir}/`)), /0001_typo\.sql/);
    assert.deepEqual(await appliedNames(database), []);
    assert.equal(await schemaExists(database, "typo"), false);
  } finally {
    await database.close();
    await Deno.remove(dir, { recursive: true });
  }
});
