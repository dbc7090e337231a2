/**
 * End-to-end tests in Debian's Chromium against the real server (embedded PGlite + DuckDB in a
 * temporary data directory, demo seed), logging in through the real login page.
 */
import { defineConfig } from "@playwright/test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { missingRuntimeEnv } from "../../scripts/runtime_env.ts";

const PORT = Number(process.env.E2E_PORT ?? 8181);
const BASE_URL = `http://localhost:${PORT}`;
/** Port of the short-session platform (see session.spec.ts). */
export const SHORT_SESSION_PORT = PORT + 1;

export default defineConfig({
  testDir: ".",
  testMatch: /.*\.spec\.ts/,
  outputDir: "../../test-results",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  use: {
    baseURL: BASE_URL,
    screenshot: "only-on-failure",
    trace: "off",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
      ],
    },
  },
  webServer: [
    server(PORT, {}),
    // A second platform whose access tokens live 70 s, for the session-expiry dialog.
    // It needs no measurements: without the simulator it leaves the cores to the other.
    server(SHORT_SESSION_PORT, { ACCESS_TOKEN_TTL: "70", SIMULATOR: "false" }),
  ],
});

function server(port: number, env: Record<string, string>) {
  const url = `http://localhost:${port}`;
  return {
    command:
      "npx --no-install deno run --allow-net --allow-read --allow-write --allow-env --allow-ffi --allow-sys main.ts",
    cwd: "../..",
    url: `${url}/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "ignore" as const,
    stderr: "pipe" as const,
    env: {
      PORT: String(port),
      DATA_DIR: mkdtempSync(join(tmpdir(), "gridwatch-e2e-")),
      PUBLIC_URL: url,
      LOG_LEVEL: "warn",
      // The demo cells send live and two days of history fill in behind them (about 40 s of
      // background work), so grid monitoring, statistics and IO screens have data; a 14-day
      // backfill would only compete with the browser for the two cores.
      SIMULATOR: "true",
      SIMULATOR_BACKFILL_DAYS: "2",
      // Test hooks (POST /nsm/e2e/...) for notifications.spec.ts; never set in production.
      E2E_HOOKS: "true",
      // As scripts/start.sh runs the platform (V8 heap growth, glibc arenas).
      ...missingRuntimeEnv(process.env),
      ...env,
    },
  };
}
