/**
 * End-to-end ingest through the real cell protocol: HTTP, credential check, validation, the
 * group commit of concurrent batches and the durable acknowledgement, on a platform served on
 * 127.0.0.1. The cells run in a process of their own; only the sending is timed. Two shapes: one window per
 * batch (a cell sending live; also one tick with 64 requests in flight) and 30 windows per batch
 * (a gateway or a catching-up cell).
 */
import { WINDOW_MS } from "../../core/simulator/mod.ts";
import type { IngestJob, IngestStats } from "./ingest_client.ts";
import { realTimeFactor, rowsPerTick, type Sizes } from "./lib/options.ts";
import type { BenchPlatform } from "./lib/platform.ts";
import { atLeast, atMost, ratioAtLeast, type Result } from "./lib/report.ts";
import { perSecond, summarize } from "./lib/stats.ts";
import { cpuBetween, threadCpu } from "./lib/cpu.ts";
import { formatBreakdown, memoryBreakdown } from "./ingest_memory.ts";

/**
 * Requests in flight for one extra tick: real cells send independently, so a tick of 5,000
 * cells arrives at once; the other jobs keep `sizes.concurrency` (8, as PostgreSQL's pool).
 */
const WIDE_CONCURRENCY = 64;

/** Sends jobs to the cells' process, one at a time (see ingest_client_process.ts). */
export class CellProcess {
  readonly #child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("./ingest_client_process.ts", import.meta.url).pathname],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  readonly #writer = this.#child.stdin.getWriter();
  readonly #lines = this.#child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  #buffered = "";

  async run(job: IngestJob): Promise<IngestStats> {
    await this.#writer.write(new TextEncoder().encode(`${JSON.stringify(job)}\n`));
    for (;;) {
      const newline = this.#buffered.indexOf("\n");
      if (newline >= 0) {
        const line = this.#buffered.slice(0, newline);
        this.#buffered = this.#buffered.slice(newline + 1);
        const data = JSON.parse(line) as { ok: true; stats: IngestStats } | {
          ok: false;
          error: string;
        };
        if (data.ok) return data.stats;
        throw new Error(`Cannot run the cells: ${data.error}`);
      }
      const { value, done } = await this.#lines.read();
      if (done) throw new Error("The cells' process ended");
      this.#buffered += value;
    }
  }

  async terminate(): Promise<void> {
    await this.#writer.close().catch(() => undefined);
    await this.#child.status;
  }
}

/** Fails when a job was not stored completely: a partial ingest would flatter the figures. */
function checkComplete(label: string, stats: IngestStats): void {
  const records = stats.rows + stats.pqRecords;
  if (stats.accepted !== records || stats.statuses["200"] !== stats.requests) {
    throw new Error(
      `Cannot trust ${label}: ${stats.accepted} of ${records} records accepted, statuses ${
        JSON.stringify(stats.statuses)
      }`,
    );
  }
}

/** Times the aggregation the platform runs on its own timer while the cells send. */
function watchAggregation(bench: BenchPlatform): { ms: number; runs: number } {
  const aggregator = bench.platform.services.aggregator;
  const flush = aggregator.flush.bind(aggregator);
  const seen = { ms: 0, runs: 0 };
  aggregator.flush = async (now?: number) => {
    const start = performance.now();
    const slots = await flush(now);
    if (slots > 0) {
      seen.ms += performance.now() - start;
      seen.runs++;
    }
    return slots;
  };
  return seen;
}

/** Measures both batch shapes for `sizes.ingestCells` cells; returns the table rows. */
export async function benchIngestHttp(
  bench: BenchPlatform,
  sizes: Sizes,
  /** Appended to every row's name (a variant of the platform's set-up); no comparison keys. */
  variant = "",
  /** Told when the cells start streaming (1 window per batch) and when the backlog starts. */
  phase: (name: "streaming" | "backlog") => void = () => {},
): Promise<Result[]> {
  const worker = new CellProcess();
  const aggregation = watchAggregation(bench);
  const cells = bench.cells;
  const scaled = cells.length < 5_000;
  const job = (
    windows: number[],
    cellsPerChunk = cells.length,
    concurrency = sizes.concurrency,
  ): IngestJob => ({
    baseUrl: bench.baseUrl,
    cells,
    windows,
    concurrency,
    cellsPerChunk,
    protocol: sizes.protocol,
  });
  // Oldest first, so every series only moves forward: warm-up, ticks, then 30-window batches.
  // With protocol v2 each cell sends a slot's PQ records with one window of the next slot (its
  // own delay), so every tick carries about a 30th of them and every 30-window batch one slot's.
  const now = Math.floor(Date.now() / WINDOW_MS) * WINDOW_MS;
  const perBatch = sizes.ingestWindowsPerBatch;
  const multiStart = now - perBatch * sizes.ingestRounds * WINDOW_MS;
  // As many ticks again sent with many requests in flight, as 5,000 independent cells would.
  const wideStart = multiStart - sizes.ingestTicks * WINDOW_MS;
  const tickStart = wideStart - sizes.ingestTicks * WINDOW_MS;
  const memory = async (label: string) =>
    console.log(formatBreakdown(label, await memoryBreakdown(bench.platform)));
  try {
    await memory("after set-up");
    phase("streaming");
    checkComplete("the warm-up", await worker.run(job([tickStart - WINDOW_MS])));
    await memory("after the warm-up tick (first contact)");
    const ticks: IngestStats[] = [];
    for (let t = 0; t < sizes.ingestTicks; t++) {
      const stats = await worker.run(job([tickStart + t * WINDOW_MS]));
      checkComplete(`tick ${t}`, stats);
      ticks.push(stats);
    }
    await memory(`after ${sizes.ingestTicks} ticks, 8 in flight`);
    const wide: IngestStats[] = [];
    const cpuBefore = threadCpu();
    for (let t = 0; t < sizes.ingestTicks; t++) {
      const stats = await worker.run(
        job([wideStart + t * WINDOW_MS], cells.length, WIDE_CONCURRENCY),
      );
      checkComplete(`tick ${t} with many requests in flight`, stats);
      wide.push(stats);
    }
    const wideCpu = [
      ...cpuBetween(cpuBefore, threadCpu()),
      ["the cells' process", wide.reduce((a, s) => a + s.sendCpuMs, 0)] as [string, number],
    ];
    await memory(`after ${sizes.ingestTicks} ticks with ${WIDE_CONCURRENCY} in flight`);
    phase("backlog");
    const rounds: IngestStats[] = [];
    for (let r = 0; r < sizes.ingestRounds; r++) {
      const first = multiStart + r * perBatch * WINDOW_MS;
      const windows = Array.from({ length: perBatch }, (_, w) => first + w * WINDOW_MS);
      const stats = await worker.run(job(windows, 200));
      checkComplete(`round ${r}`, stats);
      rounds.push(stats);
    }
    await memory(`after ${sizes.ingestRounds} x ${perBatch} windows per batch`);
    await bench.platform.services.measurements.flush();
    await memory("after the backlog is in DuckDB");
    // 20-s rows per second (every record is acknowledged: checkComplete).
    const rate = (list: IngestStats[]) =>
      perSecond(
        list.reduce((a, s) => a + s.rows, 0),
        list.reduce((a, s) => a + s.sendMs, 0),
      );
    const single = rate(ticks);
    const wideRate = rate(wide);
    const multi = rate(rounds);
    const n = cells.length;
    const latency = summarize(ticks.flatMap((s) => s.latencies));
    const retries = [...ticks, ...rounds].reduce((a, s) => a + s.retries, 0);
    const pqRecords = [...ticks, ...wide, ...rounds].reduce((a, s) => a + s.pqRecords, 0);
    console.log(
      `  ingest: ${n} cells, ${sizes.ingestTicks} ticks + ${sizes.ingestRounds} x ${perBatch} ` +
        `windows; request p50 ${latency.p50.toFixed(1)} ms, p99 ${latency.p99.toFixed(1)} ms ` +
        `(1 window); ticks ${ticks.map((s) => s.sendMs.toFixed(0)).join(" / ")} ms (8 in flight), ${
          wide.map((s) => s.sendMs.toFixed(0)).join(" / ")
        } ms (${WIDE_CONCURRENCY}); protocol v${sizes.protocol}, ${pqRecords} PQ records; ` +
        `${retries} retried answers >= 500; aggregation ran ${aggregation.runs} times, ${
          (aggregation.ms / 1000).toFixed(1)
        } s, during the ingest`,
    );
    // Every thread of the platform and the cells' process, per request of the wide ticks.
    const wideRequests = n * wide.length;
    const cpuPerRequest = wideCpu.reduce((a, [, ms]) => a + ms, 0) * 1000 / wideRequests;
    const cores = navigator.hardwareConcurrency;
    const wallPerRequest = wide.reduce((a, s) => a + s.sendMs, 0) * 1000 / wideRequests;
    console.log(
      `  CPU per request with ${WIDE_CONCURRENCY} in flight: ${cpuPerRequest.toFixed(0)} us = ${
        wideCpu.map(([name, ms]) => `${name} ${(ms * 1000 / wideRequests).toFixed(0)}`)
          .join(", ")
      } us; wall ${wallPerRequest.toFixed(0)} us per request`,
    );
    const engine = ratioAtLeast(0.1, ">= 0.1 x engine");
    return [
      {
        name: `HTTP ingest, 1 window/batch, ${n} cells` + variant,
        value: single,
        unit: "rows/s",
        key: variant ? undefined : "ingest.single",
        basis: { kind: "engine", rowsPerSec: single },
        target: engine,
      },
      {
        name: `  real-time factor at ${n} cells, 1 window/batch, ${sizes.concurrency} in flight` +
          variant,
        value: realTimeFactor(single, n),
        unit: "x",
        target: atLeast(10, ">= 10 x at 5,000 cells"),
        scaled,
      },
      {
        name: `  tick of ${n} cells (${rowsPerTick(n) / 1000}k rows) over HTTP, p99` + variant,
        value: summarize(ticks.map((s) => s.sendMs)).p99,
        unit: "ms",
        scaled,
      },
      {
        name: `HTTP ingest, 1 window/batch, ${n} cells, ${WIDE_CONCURRENCY} requests in flight` +
          variant,
        value: wideRate,
        unit: "rows/s",
        basis: { kind: "engine", rowsPerSec: wideRate },
        target: engine,
      },
      {
        name: `  real-time factor at ${n} cells, 1 window/batch, ${WIDE_CONCURRENCY} in flight` +
          variant,
        value: realTimeFactor(wideRate, n),
        unit: "x",
        target: atLeast(25, ">= 25 x at 5,000 cells"),
        scaled,
      },
      {
        name: `  acknowledgement of a tick of ${n} cells, ${WIDE_CONCURRENCY} in flight, p99` +
          variant,
        value: summarize(wide.map((s) => s.sendMs)).p99,
        unit: "ms",
        target: atMost(1000, "<= 1 s at 5,000 cells"),
        scaled,
      },
      {
        name: `  CPU per request, ${WIDE_CONCURRENCY} in flight, every thread and the cells' ` +
          `process` + variant,
        value: cpuPerRequest,
        unit: "us",
      },
      {
        name: `  real-time factor ${cores} cores busy all the time would give at that CPU` +
          variant,
        value: realTimeFactor(wideRate, n) * (cores * wallPerRequest) / cpuPerRequest,
        unit: "x",
        scaled,
      },
      {
        name: `HTTP ingest, ${perBatch} windows/batch, ${n} cells` + variant,
        value: multi,
        unit: "rows/s",
        key: variant ? undefined : "ingest.multi",
        basis: { kind: "engine", rowsPerSec: multi },
        target: engine,
      },
      {
        name: `  real-time factor at ${n} cells, ${perBatch} windows/batch` + variant,
        value: realTimeFactor(multi, n),
        unit: "x",
        scaled,
      },
      {
        name: `  real-time factor at 20,000 cells, 1 window/batch, ${WIDE_CONCURRENCY} in flight` +
          (n === 20_000 ? "" : " (extrapolated from this throughput)") + variant,
        value: realTimeFactor(wideRate, 20_000),
        unit: "x",
        target: atLeast(6, ">= 6 x at 20,000 cells"),
      },
    ];
  } finally {
    await worker.terminate();
  }
}
