/**
 * The whole platform in-process for the HTTP benchmarks: `startPlatform` on a temporary data
 * directory (PGlite, DuckDB file), served by `Deno.serve` on 127.0.0.1 with an ephemeral port,
 * and an LVGRID structure of N nodes with one registered, installed cell each, owned by the
 * demo's second utility (so the grid status holds exactly those N nodes).
 */
import { type Platform, startPlatform } from "../../../main.ts";
import { OTHER_ADMIN, OTHER_CUSTOMER } from "../../../modules/demo/mod.ts";
import { createStructure } from "../../../modules/grid/mod.ts";
import { IMPORT_MAX_CELLS } from "../../../modules/grid/contract.ts";
import { sql } from "drizzle-orm";
import { createLogger, loadConfig } from "../../../kernel/mod.ts";
import type { SimCell } from "../../../core/simulator/mod.ts";
import { loginWithPassword } from "../../../tests/helpers/oidc_login.ts";
import { lvgridCell, lvgridStructure } from "./workload.ts";

/** Issuer and audience of the tokens; logins run in-process against this base URL. */
const PUBLIC_URL = "http://gw.bench";
/** How long `close` waits for the platform to stop. */
const CLOSE_WAIT_MS = 10_000;

/** A served platform with N measuring cells ready to send. */
export interface BenchPlatform {
  platform: Platform;
  baseUrl: string;
  cells: SimCell[];
  /** Seconds spent creating the structure and registering the cells. */
  setupSeconds: number;
  /** An access token of the customer's administrator, taken at start (see `close`). */
  token: string;
  /**
   * Stops the server and the platform, waiting at most `CLOSE_WAIT_MS`: after a login the
   * platform's close waits minutes for the identity provider's idle keep-alive connection
   * (modules/identity/provider.ts), and the rest of it then finishes in the background.
   */
  close(): Promise<void>;
}

/**
 * Starts the platform in `dataDir` and prepares `cellCount` LVGRID cells. With `browser`, it is
 * served on that port as its public URL (a browser can log in) with the web app in `webDist`.
 */
export async function startBenchPlatform(
  dataDir: string,
  cellCount: number,
  browser?: { port: number; webDist: string },
  env: Record<string, string> = {},
): Promise<BenchPlatform> {
  const publicUrl = browser ? `http://127.0.0.1:${browser.port}` : PUBLIC_URL;
  const config = loadConfig({
    DATA_DIR: dataDir,
    PUBLIC_URL: publicUrl,
    LOG_LEVEL: "error",
    DEMO_SEED: "true",
    SIMULATOR: "false",
    ...(browser ? { WEB_DIST: browser.webDist } : {}),
    ...env,
  });
  const platform = await startPlatform(config, createLogger("error"));
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: browser?.port ?? 0, onListen: () => {} },
    platform.app.fetch,
  );
  const started = performance.now();
  const { customers, onboarding, db } = platform.services;
  const customer = await customers.getByConnection(OTHER_CUSTOMER);
  if (!customer) {
    throw new Error(`Cannot prepare the benchmark: customer ${OTHER_CUSTOMER} is missing`);
  }
  const nodeIds = await createStructure(db, customer.key, lvgridStructure(cellCount));
  // Registered through the product's CSV import (one transaction per IMPORT_MAX_CELLS cells),
  // installed in one statement: minutes less than one registration and one update per cell.
  const templates = Array.from({ length: cellCount }, (_, k) => lvgridCell(k));
  const serialOf = (k: number) => `BENCH-${String(k).padStart(7, "0")}`;
  const issued = new Map<string, { cell_id: string; credential: string }>();
  for (let start = 0; start < cellCount; start += IMPORT_MAX_CELLS) {
    const serials = templates.slice(start, start + IMPORT_MAX_CELLS).map((_, k) =>
      serialOf(start + k)
    );
    const { cells: imported } = await onboarding.importCsv(customer.key, {
      csv: serials.join("\n"),
    });
    for (const c of imported) issued.set(c.serial_number, c);
  }
  const cells: SimCell[] = templates.map((template, k) => {
    const { cell_id: cellId, credential } = issued.get(serialOf(k))!;
    return { ...template, cellId, credential };
  });
  const placement = cells.map((c, k) => {
    const nodeName = `${c.nodeKind === "MV_LV_STATION" ? "TS" : "CAB"} bench ${k}`;
    return { id: c.cellId, node_id: nodeIds.get(nodeName)! };
  });
  await db.execute(sql`
    UPDATE grid.cells SET node_id = p.node_id, type = 'INSTALLED', status = 'CONNECTED'
    FROM jsonb_to_recordset(${JSON.stringify(placement)}::jsonb) AS p(id text, node_id text)
    WHERE grid.cells.id = p.id`);
  const setupSeconds = (performance.now() - started) / 1000;
  const fetchApp = (req: Request) => Promise.resolve(platform.app.fetch(req));
  // Logged in early: the provider's connection is then long idle when the platform closes.
  const tokens = await loginWithPassword(
    fetchApp,
    publicUrl,
    OTHER_ADMIN.email,
    OTHER_ADMIN.password,
  );
  return {
    platform,
    baseUrl: `http://127.0.0.1:${server.addr.port}`,
    cells,
    setupSeconds,
    token: tokens.access_token,
    close: async () => {
      await server.shutdown();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const closed = await Promise.race([
        platform.close().then(() => true),
        new Promise<false>((resolve) => timer = setTimeout(() => resolve(false), CLOSE_WAIT_MS)),
      ]);
      clearTimeout(timer);
      if (!closed) {
        console.log(
          `  platform.close() still waiting after ${CLOSE_WAIT_MS / 1000} s ` +
            "(identity provider keep-alive); it finishes in the background",
        );
      }
    },
  };
}
