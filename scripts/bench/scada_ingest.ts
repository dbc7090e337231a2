/**
 * The ingest rate under SCADA load, in one run: the whole platform (PGlite, DuckDB file) served
 * on 127.0.0.1 with N LVGRID cells sending over HTTP (their own process, as ingest_http.ts), two
 * SCADA profiles of 12 float points per node (U per phase and I per phase of three LV feeders:
 * N x 12 points each), and two IEC 104 masters in a third process. Rounds alternate (ABBA)
 * between ticks sent with no master connected and ticks sent while both masters are connected
 * and started; the report is the rows/s and real-time factor of each, their ratio, and how long
 * after a tick's last acknowledgement both masters had every value of that tick.
 *
 *   npx deno run -A scripts/bench/scada_ingest.ts [--cells=5000] [--rounds=4] [--ticks=3]
 */
import { WINDOW_MS } from "../../core/simulator/mod.ts";
import { OTHER_CUSTOMER } from "../../modules/demo/mod.ts";
import { readStructure } from "../../modules/grid/mod.ts";
import { lvFeeders, nodesInOrder, type StoredPoint } from "../../modules/scada/points.ts";
import { freePort } from "../../tests/helpers/acknowledged.ts";
import { CellProcess } from "./ingest_http.ts";
import type { IngestJob, IngestStats } from "./ingest_client.ts";
import { realTimeFactor } from "./lib/options.ts";
import { startBenchPlatform } from "./lib/platform.ts";
import { perSecond, summarize } from "./lib/stats.ts";

const arg = (name: string, fallback: number) =>
  Number(Deno.args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const CELLS = arg("cells", 5000);
const ROUNDS = arg("rounds", 4);
const TICKS = arg("ticks", 3);
const CONCURRENCY = 8;

/** The masters' process: commands on stdin, one JSON line per event on stdout. */
class MastersProcess {
  readonly #child: Deno.ChildProcess;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #lines: ReadableStreamDefaultReader<string>;
  #buffered = "";
  /** A read still pending after a timeout: the next wait takes it over (no line is lost). */
  #pending: Promise<ReadableStreamReadResult<string>> | null = null;
  /** Completed windows: key -> arrival time per master. */
  readonly windows = new Map<string, number[]>();

  constructor(points: number) {
    this.#child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        new URL("./scada_masters.ts", import.meta.url).pathname,
        `--points=${points}`,
      ],
      stdin: "piped",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    this.#writer = this.#child.stdin.getWriter();
    this.#lines = this.#child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  }

  send(line: string): Promise<void> {
    return this.#writer.write(new TextEncoder().encode(`${line}\n`));
  }

  /** Reads lines (recording completed windows) until `until` holds for one, or the timeout. */
  async read(until: (line: Record<string, unknown>) => boolean, timeoutMs: number) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const newline = this.#buffered.indexOf("\n");
      if (newline >= 0) {
        const line = JSON.parse(this.#buffered.slice(0, newline)) as Record<string, unknown>;
        this.#buffered = this.#buffered.slice(newline + 1);
        if (typeof line.window === "string") {
          const at = this.windows.get(line.window) ?? [];
          at[line.master as number] = line.at as number;
          this.windows.set(line.window, at);
        }
        if (until(line)) return true;
        continue;
      }
      const left = deadline - Date.now();
      if (left <= 0) return false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      this.#pending ??= this.#lines.read();
      const read = await Promise.race([
        this.#pending,
        new Promise<null>((resolve) => timer = setTimeout(() => resolve(null), left)),
      ]);
      clearTimeout(timer);
      if (read === null) return false;
      this.#pending = null;
      if (read.done) throw new Error("The masters' process ended");
      this.#buffered += read.value;
    }
  }

  async close(): Promise<void> {
    await this.#writer.close().catch(() => undefined);
    await this.#child.status;
  }
}

/** The key the masters give a window: its minute and milliseconds within the minute (UTC). */
const windowKey = (ts: number) => `${Math.floor(ts / 60_000) % 60}:${ts % 60_000}`;

const dir = await Deno.makeTempDir({ prefix: "gw-bench-scada-" });
console.log(`> SCADA ingest: ${CELLS} cells, ${ROUNDS} rounds x ${TICKS} ticks per mode`);
const bench = await startBenchPlatform(dir, CELLS);
console.log(`  setup ${bench.setupSeconds.toFixed(0)} s`);
const cells = new CellProcess();
let masters: MastersProcess | undefined;
try {
  const { customers, scada, cells: registry } = bench.platform.services;
  const customer = (await customers.getByConnection(OTHER_CUSTOMER))!;
  const benchCells = new Set(bench.cells.map((c) => c.cellId));
  const measured = new Set(
    (await registry.listFor(customer.key, "INSTALLED")).filter((c) => benchCells.has(c.id))
      .map((c) => c.node_id),
  );
  const ports = [freePort(), freePort()];
  const profiles = [];
  for (const [k, port] of ports.entries()) {
    profiles.push(
      await scada.service.create(customer.key, {
        name: `Bench master ${k + 1}`,
        ip_address: "127.0.0.1",
        port,
        asdu: k + 1,
        activated: true,
      }),
    );
  }
  // 12 floats per node with a bench cell, in feeder order: U L1-L3 of the first LV feeder and
  // I L1-L3 of the first three (the generated default has more per node: 5,000 of its nodes
  // would pass the 60,000 points and 65,535 addresses a profile holds).
  const structure = await readStructure(bench.platform.services.db, customer.key);
  const points: StoredPoint[] = [];
  const nodes = new Set<string>();
  let ioa = 1;
  const push = (p: Omit<StoredPoint, "ioa" | "activated">) =>
    points.push({ ...p, ioa: ioa++, activated: true });
  for (const node of nodesInOrder(structure)) {
    const feeders = lvFeeders(node).slice(0, 3);
    if (!measured.has(node.id) || feeders.length < 3) continue;
    nodes.add(node.id);
    for (const phase of [1, 2, 3]) {
      push({ node_id: node.id, feeder_id: feeders[0]!.id, quantity: "U", phase });
    }
    for (const feeder of feeders) {
      for (const phase of [1, 2, 3]) {
        push({ node_id: node.id, feeder_id: feeder.id, quantity: "I", phase });
      }
    }
  }
  for (const profile of profiles) await scada.service.setPoints(customer.key, profile.id, points);
  await scada.connector.settled();
  const listening = scada.connector.status(customer.key).filter((l) => l.listening).length;
  console.log(
    `  2 profiles of ${points.length} points (${nodes.size} nodes), ${listening} listening`,
  );
  masters = new MastersProcess(points.length);

  const job = (window: number): IngestJob => ({
    baseUrl: bench.baseUrl,
    cells: bench.cells,
    windows: [window],
    concurrency: CONCURRENCY,
    cellsPerChunk: bench.cells.length,
    protocol: 2,
  });
  const checked = (stats: IngestStats) => {
    if (
      stats.accepted !== stats.rows + stats.pqRecords || stats.statuses["200"] !== stats.requests
    ) {
      throw new Error(`Incomplete ingest: ${JSON.stringify(stats.statuses)}`);
    }
    return stats;
  };
  const totalTicks = 1 + ROUNDS * 2 * TICKS;
  let window = (Math.floor(Date.now() / WINDOW_MS) - totalTicks) * WINDOW_MS;
  checked(await cells.run(job(window))); // warm-up (series created, caches filled)
  const without: IngestStats[] = [];
  const withMasters: IngestStats[] = [];
  const delivery: number[] = [];
  let missed = 0;
  for (let round = 0; round < ROUNDS; round++) {
    // ABBA: without, with, with, without, ...
    const order = round % 2 === 0 ? [false, true] : [true, false];
    for (const connected of order) {
      if (connected) {
        await masters.send(`connect ${ports.join(" ")}`);
        if (!await masters.read((l) => typeof l.started === "number", 10_000)) {
          const states = scada.connector.status(customer.key);
          throw new Error(`The masters did not start: ${JSON.stringify(states)}`);
        }
      }
      for (let t = 0; t < TICKS; t++) {
        window += WINDOW_MS;
        const stats = checked(await cells.run(job(window)));
        const acknowledged = Date.now();
        const tick = `  round ${round + 1} ${connected ? "with" : "without"} masters: tick ${
          (stats.sendMs / 1000).toFixed(1)
        } s`;
        if (!connected) {
          without.push(stats);
          console.log(tick);
          continue;
        }
        withMasters.push(stats);
        const key = windowKey(window);
        const done = await masters.read(
          () => (masters!.windows.get(key) ?? []).filter(Boolean).length === 2,
          10_000,
        );
        if (!done) missed++;
        else delivery.push(Math.max(...masters.windows.get(key)!) - acknowledged);
        console.log(`${tick}, delivery ${done ? `${delivery.at(-1)!.toFixed(0)} ms` : "> 10 s"}`);
      }
      if (connected) {
        await masters.send("disconnect");
        await masters.read((l) => l.disconnected === true, 5_000);
      }
    }
  }
  const rate = (list: IngestStats[]) =>
    perSecond(
      list.reduce((a, s) => a + s.rows, 0),
      list.reduce((a, s) => a + s.sendMs, 0),
    );
  const [a, b] = [rate(without), rate(withMasters)];
  const ticks = (list: IngestStats[]) => summarize(list.map((s) => s.sendMs));
  const d = summarize(delivery.length ? delivery : [NaN]);
  console.log(
    `  without masters: ${a.toFixed(0)} rows/s, ${
      realTimeFactor(a, CELLS).toFixed(1)
    } x real time` +
      ` (tick p50 ${ticks(without).p50.toFixed(0)} ms)`,
  );
  console.log(
    `  2 masters x ${points.length} points: ${b.toFixed(0)} rows/s, ${
      realTimeFactor(b, CELLS).toFixed(1)
    } x real time (tick p50 ${ticks(withMasters).p50.toFixed(0)} ms)`,
  );
  console.log(`  ratio with / without masters: ${(b / a).toFixed(2)}`);
  console.log(`  delivery per tick (ms): ${delivery.map((x) => x.toFixed(0)).join(", ")}`);
  console.log(
    `  every value of a tick at both masters, after its last acknowledgement (negative: before it): p50 ${
      d.p50.toFixed(0)
    } ms, p99 ${d.p99.toFixed(0)} ms, max ${
      Math.max(...delivery).toFixed(0)
    } ms (${delivery.length} ticks, ${missed} not` +
      " complete within 10 s; target: within 1,000 ms of ingestion)",
  );
} finally {
  await masters?.close();
  await cells.terminate();
  await bench.close();
  await Deno.remove(dir, { recursive: true }).catch(() => undefined);
}
