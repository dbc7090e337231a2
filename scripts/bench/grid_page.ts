/**
 * The grid-monitoring screen in Chromium for N nodes: a served platform (real login, the built
 * web app) with N LVGRID nodes whose cells stored one window, and scripts/bench/grid_page_probe.mjs
 * (Playwright under Node) loading /grid-monitoring?voltage=lv; per load, the time from the
 * navigation's start until the state counts add up to N and the list shows its first node.
 */
import { join } from "node:path";
import { OTHER_ADMIN } from "../../modules/demo/mod.ts";
import { freePort } from "../../tests/helpers/acknowledged.ts";
import { storeOneWindow } from "./grid_status.ts";
import type { Sizes } from "./lib/options.ts";
import { startBenchPlatform } from "./lib/platform.ts";
import { atMost, type Result } from "./lib/report.ts";
import { summarize } from "./lib/stats.ts";

const LOADS = 7;

/** The web app to serve: WEB_DIST or web/dist when built, else a build into `dataDir`. */
async function webBuild(dataDir: string): Promise<string> {
  const existing = Deno.env.get("WEB_DIST") ?? "web/dist";
  try {
    await Deno.stat(join(existing, "index.html"));
    return existing;
  } catch {
    const outDir = join(dataDir, "web-dist");
    const build = await new Deno.Command("npx", {
      args: [
        "vite",
        "build",
        "--config",
        "web/vite.config.ts",
        "--logLevel",
        "warn",
        "--outDir",
        outDir,
      ],
      stdout: "inherit",
      stderr: "inherit",
    }).output();
    if (!build.success) throw new Error("The web app could not be built");
    return outDir;
  }
}

export async function benchGridPage(dataDir: string, sizes: Sizes): Promise<Result[]> {
  const nodes = sizes.ingestCells;
  const port = freePort();
  const webDist = await webBuild(dataDir);
  const bench = await startBenchPlatform(join(dataDir, "grid-page"), nodes, { port, webDist });
  try {
    console.log(`  set-up: ${nodes} cells in ${bench.setupSeconds.toFixed(1)} s`);
    await storeOneWindow(bench);
    const probe = await new Deno.Command("node", {
      args: [
        "scripts/bench/grid_page_probe.mjs",
        bench.baseUrl,
        OTHER_ADMIN.email,
        OTHER_ADMIN.password,
        String(nodes),
        String(LOADS),
      ],
      stdout: "piped",
      stderr: "inherit",
    }).output();
    const out = new TextDecoder().decode(probe.stdout).trim().split("\n").at(-1) ?? "";
    if (!probe.success) throw new Error(`The browser probe failed: ${out}`);
    const { times } = JSON.parse(out) as { times: number[] };
    const shown = summarize(times);
    console.log(
      `  grid-monitoring screen, ${nodes} nodes: shown after p50 ${shown.p50.toFixed(0)} ms, ` +
        `max ${Math.max(...times).toFixed(0)} ms (${times.length} loads)`,
    );
    const name = (what: string) => `Grid-monitoring screen in Chromium, ${nodes} nodes, ${what}`;
    const target = atMost(1_500, "<= 1.5 s at 5,000 nodes");
    return [
      { name: name("shown, p50"), value: shown.p50, unit: "ms" },
      {
        name: name(`shown, worst of ${times.length}`),
        value: Math.max(...times),
        unit: "ms",
        target,
        scaled: nodes < 5_000,
      },
    ];
  } finally {
    await bench.close();
  }
}
