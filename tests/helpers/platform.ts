/**
 * Starts the whole platform in-process for integration tests: a temporary data directory with
 * PGlite, or a fresh database on the PostgreSQL server of TEST_PG_ADMIN_URL.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Platform, startPlatform } from "../../main.ts";
import { createLogger, loadConfig } from "../../kernel/mod.ts";
import { loginWithPassword, type Tokens } from "./oidc_login.ts";
import { postgresTestDatabase } from "./postgres.ts";

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
  const database = kind === "postgres" ? await postgresTestDatabase("gw_test") : undefined;
  const config = loadConfig({
    DATA_DIR: dataDir,
    PUBLIC_URL: TEST_BASE_URL,
    LOG_LEVEL: "error",
    ...(database ? { DATABASE_URL: database.url } : {}),
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
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Reads the claims of a JWT without verifying it (tests only). */
export function decodeClaims(jwt: string): Record<string, unknown> {
  const part = jwt.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/");
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(part), (c) => c.charCodeAt(0))));
}
