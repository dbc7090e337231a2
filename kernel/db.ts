/**
 * Relational database: drizzle-orm (PostgreSQL dialect) on embedded PGlite by default, or on a
 * PostgreSQL server when DATABASE_URL is set. Both expose the same drizzle API to modules.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
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

/**
 * Opens PostgreSQL at `url` when given, else PGlite in `${dataDir}/pg` (or in memory for
 * ":memory:"). A new PGlite cluster starts from `initial` (a `dumpDataDir` tarball) when given.
 */
export async function openDatabase(
  opts: { url?: string | undefined; dataDir: string; initial?: Blob | undefined },
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
  return wrapPglite(await openPglite(pgliteDir(opts.dataDir), opts.initial));
}

/** True when `dataDir` (as given to {@link openDatabase}) holds no PGlite cluster yet. */
export function isNewCluster(dataDir: string): boolean {
  return holdsNoCluster(pgliteDir(dataDir));
}

/** Where PGlite keeps the cluster of a data directory (undefined: in memory). */
function pgliteDir(dataDir: string): string | undefined {
  return dataDir === ":memory:" ? undefined : `${dataDir}/pg`;
}

function holdsNoCluster(dir: string | undefined): boolean {
  return dir === undefined || !existsSync(`${dir}/PG_VERSION`);
}

/**
 * The directory where a test run keeps the PGlite clusters every test would otherwise create
 * again (`GRIDWATCH_PGLITE_TEMPLATES`, set by scripts/test.sh), or undefined (the product).
 */
export function templateDir(): string | undefined {
  return Deno.env.get("GRIDWATCH_PGLITE_TEMPLATES") || undefined;
}

/**
 * A PGlite cluster prepared once (`prepare` on an empty one) and then kept as a tarball: in
 * memory for this isolate and as `pglite-<key>.tar` in `dir` for the other processes of a test
 * run. PGlite's initdb takes 1-20 s by load; unpacking a cluster's files well under one.
 */
export function preparedCluster(
  dir: string,
  key: string,
  prepare: (database: Database) => Promise<void>,
): Promise<Blob> {
  let made = clusters.get(key);
  if (!made) {
    made = pgliteVersion().then((version) =>
      readOrMakeCluster(key, `${dir}/pglite-${version}-${key}.tar`, prepare)
    );
    made.catch(() => clusters.delete(key));
    clusters.set(key, made);
  }
  return made;
}

/** PGlite's version (keys prepared clusters). */
export async function pgliteVersion(): Promise<string> {
  const file = new URL("../package.json", import.meta.resolve("@electric-sql/pglite"));
  return (JSON.parse(await readFile(file, "utf8")) as { version: string }).version;
}

const clusters = new Map<string, Promise<Blob>>();
const EMPTY = "empty";

async function readOrMakeCluster(
  key: string,
  file: string,
  prepare: (database: Database) => Promise<void>,
): Promise<Blob> {
  if (existsSync(file)) return new Blob([await readFile(file)]);
  // The empty cluster itself comes from initdb; any other starts from it.
  const client = await openPglite(undefined, key === EMPTY ? null : undefined);
  await prepare(wrapPglite(client));
  const blob = await client.dumpDataDir("none");
  await client.close();
  // Written aside and renamed: a process reading it never sees half a file.
  const aside = `${file}.${Deno.pid}.${Date.now()}`;
  await writeFile(aside, new Uint8Array(await blob.arrayBuffer()));
  await rename(aside, file);
  return blob;
}

function wrapPglite(client: PGlite): Database {
  return {
    kind: "pglite",
    db: drizzlePglite(client) as unknown as Db,
    exec: async (text) => {
      await client.exec(text);
    },
    close: () => client.close(),
  };
}

/**
 * Opens PGlite in `dir` (in memory when undefined); a new cluster starts from `initial`, else
 * (undefined) from a prepared empty cluster during test runs, else (null) from initdb. PGlite's
 * WebAssembly is compiled once per isolate.
 */
async function openPglite(
  dir: string | undefined,
  initial: Blob | null | undefined,
): Promise<PGlite> {
  const fresh = holdsNoCluster(dir);
  if (dir !== undefined) await mkdir(dir, { recursive: true });
  const options: PGliteOptions = { ...await pgliteParts() };
  if (dir !== undefined) options.dataDir = dir;
  const templates = templateDir();
  if (fresh && initial !== null && (initial || templates)) {
    options.loadDataDir = initial ?? await preparedCluster(templates!, EMPTY, async () => {});
  }
  const client = new PGlite(options);
  await client.waitReady;
  return client;
}

type Parts = Pick<PGliteOptions, "pgliteWasmModule" | "initdbWasmModule" | "fsBundle">;
let parts: Promise<Parts> | undefined;

/** PGlite's compiled WebAssembly and file bundle, or nothing when they are not found. */
function pgliteParts(): Promise<Parts> {
  parts ??= (async () => {
    try {
      const dist = new URL("./", import.meta.resolve("@electric-sql/pglite"));
      const [pglite, initdb, bundle] = await Promise.all(
        ["pglite.wasm", "initdb.wasm", "pglite.data"].map((name) => readFile(new URL(name, dist))),
      );
      return {
        pgliteWasmModule: await WebAssembly.compile(pglite!),
        initdbWasmModule: await WebAssembly.compile(initdb!),
        fsBundle: new Blob([bundle!]),
      };
    } catch {
      return {}; // PGlite finds its own files
    }
  })();
  return parts;
}
