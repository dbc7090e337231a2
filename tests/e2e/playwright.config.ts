/**
 * End-to-end tests in Debian's Chromium against the real server (embedded PGlite + DuckDB in a
 * temporary data directory, demo seed), logging in through the real login page.
 */
import { defineConfig } from "@playwright/test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const PORT = Number(process.env.E2E_PORT ?? 8181);
const BASE_URL = `http://localhost:${PORT}`;
const DATA_DIR = mkdtempSync(join(tmpdir(), "gridwatch-e2e-"));

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
  webServer: {
    command:
      "npx --no-install deno run --allow-net --allow-read --allow-write --allow-env --allow-ffi --allow-sys main.ts",
    cwd: "../..",
    url: `${BASE_URL}/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
    env: { PORT: String(PORT), DATA_DIR, PUBLIC_URL: BASE_URL, LOG_LEVEL: "warn" },
  },
});
