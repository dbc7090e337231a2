/**
 * The drizzle schemas (modules/<name>/**\/schema.ts) and the database the SQL migrations build
 * describe the same tables: every column with the same type and nullability, and no table or
 * column on one side only. Run on PGlite, and on PostgreSQL when TEST_PG_ADMIN_URL is set.
 */
import assert from "node:assert/strict";
import { readdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import { postgresTestDatabase } from "../helpers/postgres.ts";
import { migrate, openDatabase } from "../../kernel/mod.ts";
import { databaseKinds } from "../helpers/platform.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** One column as both sides describe it: `schema.table.column: type [not null]`. */
type Columns = Map<string, string>;

/** Aliases PostgreSQL's `format_type` and drizzle spell differently. */
function normalType(type: string): string {
  return type.toLowerCase()
    .replace(/,\s+/g, ",")
    .replace(/^character varying/, "varchar")
    .replace(/^timestamp\((\d)\) with time zone/, "timestamp with time zone")
    .replace(/^serial$/, "integer")
    .replace(/^bigserial$/, "bigint")
    .replace(/^int4$/, "integer")
    .replace(/^float8$/, "double precision");
}

async function schemaFiles(dir = "modules"): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(`${ROOT}${dir}`, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...await schemaFiles(path));
    else if (entry.name === "schema.ts") out.push(path);
  }
  return out.sort();
}

/** The columns the drizzle tables declare, and the schemas they live in. */
async function drizzleColumns(): Promise<{ columns: Columns; schemas: Set<string> }> {
  const columns: Columns = new Map();
  const schemas = new Set<string>();
  for (const file of await schemaFiles()) {
    const mod = await import(`${ROOT}${file}`) as Record<string, unknown>;
    for (const value of Object.values(mod)) {
      if (!(value instanceof PgTable)) continue;
      const table = getTableConfig(value);
      const schema = table.schema ?? "public";
      schemas.add(schema);
      for (const column of table.columns) {
        const type = normalType(column.getSQLType());
        columns.set(
          `${schema}.${table.name}.${column.name}`,
          `${type}${column.notNull ? " not null" : ""}`,
        );
      }
    }
  }
  return { columns, schemas };
}

/** The columns of the migrated database in the given schemas. */
async function databaseColumns(
  query: (text: string) => Promise<Record<string, unknown>[]>,
  schemas: Set<string>,
): Promise<Columns> {
  const list = [...schemas].map((s) => `'${s}'`).join(", ");
  const rows = await query(`
    select n.nspname as schema, c.relname as "table", a.attname as "column",
           format_type(a.atttypid, a.atttypmod) as type, a.attnotnull as not_null
    from pg_attribute a
    join pg_class c on c.oid = a.attrelid and c.relkind = 'r'
    join pg_namespace n on n.oid = c.relnamespace
    where a.attnum > 0 and not a.attisdropped and n.nspname in (${list})`);
  return new Map(rows.map((r) => [
    `${r.schema}.${r.table}.${r.column}`,
    `${normalType(String(r.type))}${r.not_null ? " not null" : ""}`,
  ]));
}

function differences(declared: Columns, actual: Columns): string[] {
  const out: string[] = [];
  for (const [name, type] of declared) {
    const found = actual.get(name);
    if (found === undefined) out.push(`${name}: in drizzle only (${type})`);
    else if (found !== type) out.push(`${name}: drizzle ${type}, database ${found}`);
  }
  for (const [name, type] of actual) {
    if (!declared.has(name)) out.push(`${name}: in the database only (${type})`);
  }
  return out.sort();
}

for (const kind of databaseKinds()) {
  Deno.test(`drizzle schemas and the migrated ${kind} database have the same columns`, async () => {
    const fresh = kind === "postgres"
      ? await postgresTestDatabase("gw_drift", { migrated: false })
      : undefined;
    const url = fresh?.url;
    const drop = async () => await fresh?.drop();
    const database = await openDatabase({ url, dataDir: ":memory:" });
    try {
      await migrate(database);
      const { columns: declared, schemas } = await drizzleColumns();
      assert.ok(declared.size > 100, `the drizzle tables were read (${declared.size} columns)`);
      const query = async (text: string) =>
        (await database.db.execute(sql.raw(text)) as unknown as { rows: Record<string, unknown>[] })
          .rows;
      const actual = await databaseColumns(query, schemas);
      assert.deepEqual(differences(declared, actual), []);
    } finally {
      await database.close();
      await drop();
    }
  });
}
