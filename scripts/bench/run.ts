/**
 * The benchmarks of /work/shared/guide/quality.md in one run, on file-backed databases in a
 * temporary directory, with the simulator's fixed seed:
 *
 *   npx deno run -A scripts/bench/run.ts [--quick] [--only step,step] [--cells=N] [--protocol=1]
 *
 * The run first calibrates the machine (engine limit and scan bandwidth) and prints every
 * figure absolute and as a ratio to those, then one closing table with the targets. `--quick`
 * shrinks the workloads about tenfold (under 2 minutes). Missed targets never fail the run;
 * the exit code is 1 only when a benchmark could not run.
 */
import { benchAggregation } from "./aggregation.ts";
import { benchAppender } from "./appender.ts";
import { calibrate } from "./calibration.ts";
import { benchCompliance } from "./en50160.ts";
import { benchPqReport } from "./pq_report.ts";
import { benchGridPage } from "./grid_page.ts";
import { benchGridStatus, benchGridStatusHttp, benchGridStatusServed } from "./grid_status.ts";
import { benchIngestHttp } from "./ingest_http.ts";
import { benchIngestMqtt } from "./ingest_mqtt.ts";
import { comparisons } from "./lib/compare.ts";
import { RssSampler } from "./lib/memory.ts";
import { selectedSteps, sizesFor } from "./lib/options.ts";
import { startBenchPlatform } from "./lib/platform.ts";
import { type Result, resultTable } from "./lib/report.ts";
import { benchPostgres, withTemporaryDatabase } from "./postgres.ts";
import { benchPqGrid } from "./pq_grid.ts";
import { benchStatistics } from "./statistics.ts";
import { benchTriggers } from "./triggers.ts";
import { withProductRuntime } from "./lib/runtime.ts";

await withProductRuntime();

const quick = Deno.args.includes("--quick");
/** `--cells=5000`: the HTTP ingest's cells, e.g. a quick run at the bar's size. */
const cells = Number(Deno.args.find((a) => a.startsWith("--cells="))?.slice(8));
/** `--protocol=1`: the cells of the ingest benchmarks send PQ values every 20 s (protocol v1). */
const protocol = Deno.args.includes("--protocol=1") ? 1 as const : 2 as const;
/** `--agg-cells=5000`: the cells of the aggregation step's closed slot (the close's bar size). */
const aggCells = Number(Deno.args.find((a) => a.startsWith("--agg-cells="))?.slice(12));
/** `--agg-history-days=2`: days of aggregates stored before that slot (full run 1, quick 0). */
const aggDays = Number(Deno.args.find((a) => a.startsWith("--agg-history-days="))?.slice(19));
const sizes = {
  ...sizesFor(quick),
  ...(cells > 0 ? { ingestCells: cells } : {}),
  ...(aggCells > 0 ? { aggregationCells: aggCells } : {}),
  ...(aggDays >= 0 ? { aggregationHistoryDays: aggDays } : {}),
  protocol,
};
const only = selectedSteps(Deno.args);
const dir = await Deno.makeTempDir({ prefix: "gridwatch-bench-" });
const sampler = new RssSampler();
const results: Result[] = [];
const failures: string[] = [];
const MB = 1024 * 1024;

/** Runs one benchmark as a named memory phase; a failure is reported and the run goes on. */
async function step(name: string, fn: () => Promise<Result[]>): Promise<void> {
  console.log(`> ${name}`);
  sampler.phase(name);
  const start = performance.now();
  try {
    results.push(...await fn());
  } catch (error) {
    failures.push(`${name}: ${(error as Error).message}`);
    console.error(`  FAILED: ${(error as Error).stack ?? error}`);
  }
  sampler.sample();
  console.log(
    `  ${((performance.now() - start) / 1000).toFixed(1)} s, peak RSS ${
      (sampler.peakOf(name) / MB).toFixed(0)
    } MB`,
  );
}

const started = performance.now();
console.log(
  `GridWatch benchmarks (${quick ? "quick" : "full"}), ${new Date().toISOString()}, ` +
    `${navigator.hardwareConcurrency} CPUs, ${
      (Deno.systemMemoryInfo().total / 1024 ** 3).toFixed(1)
    } GiB RAM, deno ${Deno.version.deno}, data in ${dir}`,
);
try {
  console.log("> calibration");
  sampler.phase("calibration");
  const { calibration, results: calibrationRows } = await calibrate(dir, sizes);
  results.push(...calibrationRows);
  const ingestPhase = `HTTP ingest, ${sizes.ingestCells} cells`;

  if (only.has("ingest")) {
    await step(ingestPhase, async () => {
      const bench = await startBenchPlatform(`${dir}/platform`, sizes.ingestCells);
      try {
        console.log(`  set-up: ${bench.cells.length} cells in ${bench.setupSeconds.toFixed(1)} s`);
        const ingest = await benchIngestHttp(
          bench,
          sizes,
          "",
          (p) => sampler.phase(`${ingestPhase}, ${p}`),
        );
        if (!only.has("grid-status-http")) return ingest;
        sampler.phase("grid status over HTTP");
        return [...ingest, ...await benchGridStatusHttp(bench, sizes)];
      } finally {
        await bench.close();
      }
    });
  } else if (only.has("grid-status-http")) {
    await step("grid status over HTTP", () => benchGridStatusServed(`${dir}/platform`, sizes));
  }
  // The same with the relational data on a PostgreSQL server (DATABASE_URL) instead of PGlite, as
  // a utility of this size would run it: no PostgreSQL in WebAssembly on the server's thread.
  const ingestPgPhase = `HTTP ingest, ${sizes.ingestCells} cells, PostgreSQL server`;
  if (only.has("ingest-pg")) {
    await step(ingestPgPhase, async () =>
      await withTemporaryDatabase(async (url) => {
        const bench = await startBenchPlatform(`${dir}/platform-pg`, sizes.ingestCells, undefined, {
          DATABASE_URL: url,
        });
        try {
          console.log(
            `  set-up: ${bench.cells.length} cells in ${bench.setupSeconds.toFixed(1)} s`,
          );
          return await benchIngestHttp(
            bench,
            sizes,
            " (PostgreSQL server)",
            (p) => sampler.phase(`${ingestPgPhase}, ${p}`),
          );
        } finally {
          await bench.close();
        }
      }) ?? []);
  }
  if (only.has("ingest-mqtt")) {
    await step(
      `MQTT ingest, ${sizes.ingestCells} cells`,
      () => benchIngestMqtt(`${dir}/mqtt`, sizes),
    );
  }
  if (only.has("grid-page")) {
    await step("grid-monitoring screen", () => benchGridPage(`${dir}/browser`, sizes));
  }
  if (only.has("appender")) await step("appender", () => benchAppender(dir, sizes));
  if (only.has("aggregation")) {
    await step("10-minute aggregation", () => benchAggregation(dir, sizes));
  }
  if (only.has("grid-status")) await step("grid status in-process", () => benchGridStatus(sizes));
  if (only.has("triggers")) await step("trigger evaluation", () => benchTriggers(dir, sizes));
  if (only.has("en50160")) await step("EN 50160", () => benchCompliance(dir, sizes));
  if (only.has("pq-report")) await step("PQ report", () => benchPqReport(dir));
  if (only.has("pq-grid")) await step("PQ grid week", () => benchPqGrid(dir, sizes));
  if (only.has("statistics")) {
    await step("visual statistics", () => benchStatistics(dir, sizes));
  }
  if (only.has("postgres")) await step("PostgreSQL", () => benchPostgres(sizes));
  sampler.stop();

  results.push(...comparisons(results));
  // While the cells stream (1 window per batch) and during a 30-window backlog after an outage.
  // Six ticks (3 at each concurrency) are two minutes of the cells' time: the bar (1 GB over an hour) is measured by
  // ingest_profile.ts streaming 180 ticks (docs/benchmarks.md), so these rows have no verdict.
  for (
    const [step, phase, variant] of [
      ["ingest", ingestPhase, ""],
      ["ingest-pg", ingestPgPhase, " (PostgreSQL server)"],
    ] as const
  ) {
    if (!only.has(step) || !sampler.peakOf(`${phase}, streaming`)) continue;
    results.push({
      name: `Peak RSS while ${sizes.ingestCells} cells stream over HTTP, ${
        2 * sizes.ingestTicks
      } ticks${variant}`,
      value: sampler.peakOf(`${phase}, streaming`) / MB,
      unit: "MB",
    }, {
      name: `Peak RSS during their ${sizes.ingestWindowsPerBatch}-window backlog${variant}`,
      value: sampler.peakOf(`${phase}, backlog`) / MB,
      unit: "MB",
    });
  }
  results.push({ name: "Peak RSS of the whole run", value: sampler.peak / MB, unit: "MB" });

  console.log(
    `\nPeak RSS by phase: ${
      sampler.phases.map(([phase, start, peak]) =>
        `${phase} ${(start / MB).toFixed(0)} -> ${(peak / MB).toFixed(0)} MB`
      ).join(", ")
    }`,
  );
  console.log(`\n${resultTable(results, calibration)}`);
  if (quick) console.log("* workload smaller than the one the target is defined for");
  for (const failure of failures) console.log(`FAILED ${failure}`);
  console.log(`Total ${((performance.now() - started) / 1000).toFixed(0)} s`);
} finally {
  sampler.stop();
  await Deno.remove(dir, { recursive: true }).catch(() => undefined);
}
Deno.exit(failures.length ? 1 : 0);
