/**
 * Where the time of the cell protocol's request path goes (issue 18): the platform on a
 * temporary data directory with N cells, then T ticks of one window per batch, sent either over
 * HTTP by the cells' process (`--mode=http`) or straight into `app.fetch` in this process
 * (`--mode=inproc`: no sockets, no HTTP parsing). `--stub-store` answers every batch without the
 * store (the request path alone). Prints per tick its wall time and the server process's CPU time
 * per request (all threads: DuckDB's too), and at the end the CPU per request by thread and of the
 * cells' process (lib/cpu.ts). Run the server side under `--cpu-prof` to profile:
 *
 *   npx deno run -A --v8-flags=--max-old-space-size=4096 scripts/bench/ingest_profile.ts \
 *     --cells=2000 --ticks=10 --mode=inproc [--stub-store] [--concurrency=64] \
 *     [--database-url=postgres://...]
 *
 * It also samples the process's RSS (every 200 ms) and prints its peak and where the memory is
 * every 30 ticks (10 minutes of the cells' time; `--memory-every=N` for another step):
 * `--cells=5000 --ticks=180 --mode=http` streams an hour.
 * `--database-url` puts the relational data on a PostgreSQL server instead of PGlite.
 */
import process from "node:process";
import { generateBatch } from "../../core/simulator/mod.ts";
import { WINDOW_MS } from "../../core/simulator/mod.ts";
import { CellProcess } from "./ingest_http.ts";
import { cpuBetween, threadCpu } from "./lib/cpu.ts";
import { formatBreakdown, memoryBreakdown } from "./ingest_memory.ts";
import { RssSampler } from "./lib/memory.ts";
import { startBenchPlatform } from "./lib/platform.ts";
import { mapBounded } from "./lib/timing.ts";
import { SEED } from "./lib/workload.ts";
import { withProductRuntime } from "./lib/runtime.ts";

await withProductRuntime();

const arg = (name: string, fallback: string) =>
  Deno.args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const cellCount = Number(arg("cells", "2000"));
const ticks = Number(arg("ticks", "10"));
const mode = arg("mode", "inproc");
const concurrency = Number(arg("concurrency", "64"));
const stub = Deno.args.includes("--stub-store");
const databaseUrl = arg("database-url", "");
/** Ticks between two breakdowns of the memory (30: every 10 minutes of the cells' time). */
const memoryEvery = Number(arg("memory-every", "30"));

const dir = await Deno.makeTempDir({ prefix: "gridwatch-profile-" });
const bench = await startBenchPlatform(
  `${dir}/platform`,
  cellCount,
  undefined,
  databaseUrl ? { DATABASE_URL: databaseUrl } : {},
);
const sampler = new RssSampler(200);
const store = bench.platform.services.measurements;
if (stub) {
  store.append = (_cell, batch) =>
    Promise.resolve({
      accepted: batch.measurements.length + (batch.pq?.length ?? 0),
      duplicates: 0,
    });
}
console.log(`set-up: ${cellCount} cells in ${bench.setupSeconds.toFixed(1)} s; mode ${mode}`);
const now = Math.floor(Date.now() / WINDOW_MS) * WINDOW_MS;
const first = now - (ticks + 2) * WINDOW_MS;
const worker = mode === "http" ? new CellProcess() : null;

type Body = { credential: string; body: string };
const bodiesOf = (window: number): Body[] =>
  bench.cells.map((cell) => ({
    credential: cell.credential,
    body: JSON.stringify(generateBatch(cell, window, SEED, 2)),
  }));

async function tickInProcess(bodies: Body[]): Promise<{ ms: number; statuses: string }> {
  const statuses: Record<number, number> = {};
  const start = performance.now();
  await mapBounded(bodies, concurrency, async ({ credential, body }) => {
    const res = await bench.platform.app.fetch(
      new Request("http://gw.bench/ingest/v1/batches", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${credential}`,
          "content-length": String(new TextEncoder().encode(body).length),
        },
        body,
      }),
    );
    await res.arrayBuffer();
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
  });
  return { ms: performance.now() - start, statuses: JSON.stringify(statuses) };
}

const results: { ms: number; cpuPerRequest: number }[] = [];
/** CPU by thread (and the cells' process) over the steady ticks. */
let threadsBefore = new Map<string, number>();
let cellsCpuMs = 0;
for (let t = 0; t < ticks + 1; t++) {
  if (t === 1) threadsBefore = threadCpu();
  const window = first + t * WINDOW_MS;
  const bodies = worker ? [] : bodiesOf(window);
  const cpu = process.cpuUsage();
  let ms: number;
  let statuses: string;
  if (worker) {
    const stats = await worker.run({
      baseUrl: bench.baseUrl,
      cells: bench.cells,
      windows: [window],
      concurrency,
      cellsPerChunk: bench.cells.length,
      protocol: 2,
    });
    ms = stats.sendMs;
    if (t > 0) cellsCpuMs += stats.sendCpuMs;
    statuses = JSON.stringify(stats.statuses);
  } else {
    ({ ms, statuses } = await tickInProcess(bodies));
  }
  const used = process.cpuUsage(cpu);
  const cpuPerRequest = (used.user + used.system) / 1000 / cellCount;
  // The first tick is the cells' first contact (credential hashes, new series): not counted.
  if (t > 0) results.push({ ms, cpuPerRequest });
  if (t % memoryEvery === 0) {
    const breakdown = formatBreakdown(`after tick ${t}`, await memoryBreakdown(bench.platform));
    sampler.sample();
    console.log(`${breakdown}; peak RSS so far ${(sampler.peak / 1024 / 1024).toFixed(0)} MB`);
  }
  if (t === 0) console.log(`steady ticks from ${performance.now().toFixed(0)} ms after start`);
  console.log(
    `tick ${t}: ${ms.toFixed(0)} ms (${(ms / cellCount * 1000).toFixed(0)} us/request wall), ` +
      `process CPU ${(cpuPerRequest * 1000).toFixed(0)} us/request, ${statuses}`,
  );
}
console.log(`steady ticks until ${performance.now().toFixed(0)} ms after start`);
const perRequest = (ms: number) => `${(ms * 1000 / (cellCount * ticks)).toFixed(0)} us`;
const threads = cpuBetween(threadsBefore, threadCpu());
if (worker) threads.push(["the cells' process", cellsCpuMs]);
console.log(
  `CPU per request over the steady ticks: ` +
    `${perRequest(threads.reduce((a, [, ms]) => a + ms, 0))} in all = ` +
    threads.map(([name, ms]) => `${name} ${perRequest(ms)}`).join(", "),
);
await store.flush();
const mean = results.reduce((a, r) => a + r.ms, 0) / results.length;
console.log(
  `mean tick ${mean.toFixed(0)} ms = ${(mean / cellCount * 1000).toFixed(0)} us/request; ` +
    `real-time factor at 5,000 cells ${(WINDOW_MS / (mean * 5000 / cellCount)).toFixed(2)} x`,
);
sampler.stop();
console.log(`peak RSS ${(sampler.peak / 1024 / 1024).toFixed(0)} MB`);
await worker?.terminate();
await bench.close();
await Deno.remove(dir, { recursive: true }).catch(() => undefined);
Deno.exit(0);
