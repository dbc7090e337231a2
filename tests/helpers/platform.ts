/**
 * Starts the whole platform in-process for integration tests: a temporary data directory with
 * PGlite, or a fresh database on the PostgreSQL server of TEST_PG_ADMIN_URL.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { type Platform, startPlatform } from "../../main.ts";
import { createLogger, loadConfig } from "../../kernel/mod.ts";
import { loginWithPassword, type Tokens } from "./oidc_login.ts";

export const TEST_BASE_URL = "http://gw.test";

/** Which relational database a test runs on. */
export type DatabaseKind = "pglite" | "postgres";

/** The database kinds integration tests run on: PGlite always, PostgreSQL when configured. */
export function databaseKinds(): DatabaseKind[] {
  return Deno.env.get("TEST_PG_ADMIN_URL") ? ["pglite", "postgres"] : ["pglite"];
}

/** A running test platform with helpers to call it like a client. */
export interface TestPlatform extends Platform {
  request(path: string, init?: RequestInit & { token?: string }): Promise<Response>;
  login(email: string, password: string): Promise<Tokens>;
}

/** Starts a platform with the demo seed on the given database kind. */
export async function startTestPlatform(
  kind: DatabaseKind,
  env: Record<string, string> = {},
): Promise<TestPlatform> {
  const dataDir = await mkdtemp(join(tmpdir(), "gridwatch-test-"));
  let databaseUrl: string | undefined;
  let dropDatabase = async () => {};
  if (kind === "postgres") {
    const adminUrl = Deno.env.get("TEST_PG_ADMIN_URL");
    if (!adminUrl) throw new Error("TEST_PG_ADMIN_URL is not set: run the suite through npm test");
    const name = `gw_test_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    // FORCE cannot end a backend of another role (e.g. an autovacuum worker that just started
    // on the new database): such a drop is tried again, and a database left behind is no
    // failure of the test that used it.
    dropDatabase = async () => {
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
    };
  }
  const config = loadConfig({
    DATA_DIR: dataDir,
    PUBLIC_URL: TEST_BASE_URL,
    LOG_LEVEL: "error",
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...env,
  });
  const platform = await startPlatform(config, createLogger("error"));
  const fetchApp = (req: Request) => Promise.resolve(platform.app.fetch(req));
  return {
    ...platform,
    request(path, init = {}) {
      const { token, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (token) headers.set("authorization", `Bearer ${token}`);
      return fetchApp(new Request(`${TEST_BASE_URL}${path}`, { ...rest, headers }));
    },
    login: (email, password) => loginWithPassword(fetchApp, TEST_BASE_URL, email, password),
    close: async () => {
      await platform.close();
      await dropDatabase();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Reads the claims of a JWT without verifying it (tests only). */
export function decodeClaims(jwt: string): Record<string, unknown> {
  const part = jwt.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/");
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(part), (c) => c.charCodeAt(0))));
}
