/**
 * Grid status for N nodes: `evaluateGridStatus` over NodeTopology arrays and a LatestValues
 * filled from one simulated window (in-process, no I/O), and the real endpoint
 * `GET /evm/grid-monitoring/grid-status?level=LV` of a served platform with N nodes.
 */
import { evaluateGridStatus, LatestValues, type NodeTopology } from "../../core/mod.ts";
import { allocateColumns, generateColumns, WINDOW_MS } from "../../core/simulator/mod.ts";
import type { Sizes } from "./lib/options.ts";
import { type BenchPlatform, startBenchPlatform } from "./lib/platform.ts";
import { atMost, type Result } from "./lib/report.ts";
import { summarize } from "./lib/stats.ts";
import { collect, mapBounded, timeOnce, timeRepeated } from "./lib/timing.ts";
import { lvgridCell, rowsByCell, SEED } from "./lib/workload.ts";

const THRESHOLDS = { overvoltagePct: 10, undervoltagePct: 10, overcurrentPct: 100 };
const seriesOf = (cell: number, slot: number, phase: number) =>
  cell * 24 + (slot - 1) * 4 + phase + 1;

/** N nodes in LV groups of 10 chained from the station outwards, 6 feeders x L1..L3 each. */
export function gridTopology(nodes: number): NodeTopology[] {
  return Array.from({ length: nodes }, (_, k) => ({
    id: `node-${k}`,
    upstreamNodeId: k % 10 === 0 ? null : `node-${k - 1}`,
    feeders: lvgridCell(k).feeders.map((f) => ({
      id: `node-${k}-f${f.slot}`,
      slot: f.slot,
      nominalCurrentA: f.nominalCurrentA,
      series: [0, 1, 2].map((phase) => seriesOf(k, f.slot, phase)),
    })),
  }));
}

/**
 * Latest values of one simulated window at `now`: 1 % of the cells silent (NO_DATA) and the
 * first LV group interrupted, so that states and suppression have work to do.
 */
export function latestValues(nodes: number, now: number): LatestValues {
  const cells = Array.from({ length: nodes }, (_, k) => lvgridCell(k));
  const cols = allocateColumns(nodes * 24);
  const window = now - (now % WINDOW_MS) - WINDOW_MS;
  const count = generateColumns(cells, window, SEED, cols);
  const latest = new LatestValues();
  for (let r = 0; r < count; r++) {
    const cell = cols.cell[r]!;
    if (cols.phase[r] === 3 || cell % 100 === 99) continue;
    const u = cell < 10 ? 0 : cols.u[r]!;
    latest.update(seriesOf(cell, cols.feeder[r]!, cols.phase[r]!), window, u, cols.i[r]!);
  }
  return latest;
}

/** Times `evaluateGridStatus` for `sizes.statusNodes` nodes. */
export async function benchGridStatus(sizes: Sizes): Promise<Result[]> {
  const nodes = sizes.statusNodes;
  const now = Date.now();
  const topology = gridTopology(nodes);
  const latest = latestValues(nodes, now);
  const samples = await timeRepeated(
    () => evaluateGridStatus(topology, latest, 230, THRESHOLDS, now),
    { warmup: 20, repeats: sizes.statusRepeats },
  );
  const s = summarize(samples);
  return [
    {
      name: `Grid status, evaluateGridStatus, ${nodes} nodes, p50`,
      value: s.p50,
      unit: "ms",
      key: "status.p50",
      rows: nodes,
    },
    {
      name: `Grid status, evaluateGridStatus, ${nodes} nodes, p99`,
      value: s.p99,
      unit: "ms",
      target: atMost(50, "<= 50 ms at 5,000 nodes"),
      scaled: nodes < 5_000,
    },
  ];
}

/** Makes every series of the bench cells current again at `ts` (a newer value, same reading). */
function refreshLatest(bench: BenchPlatform, ts: number): void {
  const { measurements } = bench.platform.services;
  for (const cell of bench.cells) {
    for (const feeder of cell.feeders) {
      for (let phase = 0; phase < 4; phase++) {
        const id = measurements.seriesId(cell.cellId, feeder.slot, phase);
        if (id === undefined) continue;
        const latest = measurements.latest;
        latest.update(id, ts, latest.u(id), latest.i(id));
      }
    }
  }
}

/**
 * Times the HTTP endpoint in both views, `summary` (what the grid-monitoring screen loads) and
 * `full` (with every phase's values).
 */
export async function benchGridStatusHttp(bench: BenchPlatform, sizes: Sizes): Promise<Result[]> {
  const results: Result[] = [];
  for (const view of ["summary", "full"] as const) {
    results.push(...await benchGridStatusView(bench, sizes, view));
  }
  return results;
}

/**
 * Times one view of the HTTP endpoint (token of the customer's administrator, real socket, gzip
 * accepted as browsers do): requests answered by the held evaluation ("cached": no new value
 * since), and the first request after new values ("cold": values refreshed before each request,
 * untimed, with the reuse window off so that each one evaluates, encodes and compresses).
 */
async function benchGridStatusView(
  bench: BenchPlatform,
  sizes: Sizes,
  view: "summary" | "full",
): Promise<Result[]> {
  const url = `${bench.baseUrl}/evm/grid-monitoring/grid-status?level=LV&view=${view}`;
  const headers = { authorization: `Bearer ${bench.token}` };
  const service = bench.platform.services.gridStatus;
  const nodes = bench.cells.length;
  let ts = Date.now() - 10_000;
  refreshLatest(bench, ts);
  /** Milliseconds to the answer's headers (the server's part) per timed request. */
  const toHeaders: number[] = [];
  const get = async (extra: Record<string, string> = {}) => {
    const start = performance.now();
    const res = await fetch(url, { headers: { ...headers, ...extra } });
    toHeaders.push(performance.now() - start);
    const body = await res.arrayBuffer();
    if (res.status !== 200 && res.status !== 304) {
      throw new Error(
        `Cannot read the grid status: ${res.status} ${new TextDecoder().decode(body)}`,
      );
    }
    return { res, bytes: body.byteLength };
  };
  const plain = await get({ "accept-encoding": "identity" });
  const zipped = await get({ "accept-encoding": "gzip" });
  const wire = Number(zipped.res.headers.get("content-length") ?? NaN);
  const etag = zipped.res.headers.get("etag");
  const cachedSamples = await timeRepeated(() => get(), {
    warmup: 3,
    repeats: sizes.statusHttpRepeats,
  });
  const cached = summarize(cachedSamples);
  const cachedHeaders = summarize(toHeaders.slice(-cachedSamples.length));
  const revalidated = summarize(
    await timeRepeated(async () => {
      const { res } = await get(etag ? { "if-none-match": etag } : {});
      if (res.status !== 304) throw new Error(`Expected 304 for If-None-Match, got ${res.status}`);
    }, { warmup: 1, repeats: sizes.statusHttpRepeats }),
  );
  const reuseMs = service.reuseMs;
  service.reuseMs = 0;
  let cold;
  try {
    cold = summarize(
      await collect(async () => {
        refreshLatest(bench, ++ts);
        return await timeOnce(() => get());
      }, { warmup: 2, repeats: sizes.statusHttpRepeats }),
    );
  } finally {
    service.reuseMs = reuseMs;
  }
  const coldHeaders = summarize(toHeaders.slice(-sizes.statusHttpRepeats));
  console.log(
    `  grid status over HTTP (${view}): ${nodes} nodes, ${
      (plain.bytes / 1e6).toFixed(2)
    } MB JSON, ` +
      `${(wire / 1e6).toFixed(2)} MB gzip; cached p50 ${cached.p50.toFixed(1)} ms, p99 ` +
      `${cached.p99.toFixed(1)} ms; 304 p50 ${revalidated.p50.toFixed(1)} ms; after new values ` +
      `p50 ${cold.p50.toFixed(1)} ms, p99 ${cold.p99.toFixed(1)} ms; to the headers: cached ` +
      `p99 ${cachedHeaders.p99.toFixed(1)} ms, after new values p99 ${
        coldHeaders.p99.toFixed(1)
      } ms`,
  );
  const target = atMost(50, "<= 50 ms at 5,000 nodes");
  const name = (what: string) =>
    `Grid status, GET /evm/.../grid-status (${view}), ${nodes} nodes, ${what}`;
  return [
    { name: name("JSON answer"), value: plain.bytes / 1e6, unit: "MB" },
    { name: name("gzip answer"), value: wire / 1e6, unit: "MB" },
    { name: name("cached, p50"), value: cached.p50, unit: "ms" },
    { name: name("cached, p99"), value: cached.p99, unit: "ms", target, scaled: nodes < 5_000 },
    { name: name("cached, to the headers, p99"), value: cachedHeaders.p99, unit: "ms" },
    { name: name("304 (If-None-Match), p50"), value: revalidated.p50, unit: "ms" },
    { name: name("after new values, p50"), value: cold.p50, unit: "ms" },
    {
      name: name("after new values, p99"),
      value: cold.p99,
      unit: "ms",
      target,
      scaled: nodes < 5_000,
    },
    { name: name("after new values, to the headers, p99"), value: coldHeaders.p99, unit: "ms" },
  ];
}

/** Stores one window of every bench cell through `MeasurementStore.append` (latest values). */
export async function storeOneWindow(bench: BenchPlatform): Promise<void> {
  const now = Date.now();
  const cols = allocateColumns(bench.cells.length * 24);
  const count = generateColumns(bench.cells, now - (now % WINDOW_MS) - WINDOW_MS, SEED, cols);
  const batches = [...rowsByCell(cols, count)];
  const { measurements } = bench.platform.services;
  await mapBounded(
    batches,
    8,
    ([cell, rows]) => measurements.append(bench.cells[cell]!.cellId, { measurements: rows }),
  );
}

/**
 * The endpoint alone (`--only grid-status-http` without the ingest): a served platform with
 * `sizes.ingestCells` nodes whose cells each stored one window through `MeasurementStore.append`.
 */
export async function benchGridStatusServed(dataDir: string, sizes: Sizes): Promise<Result[]> {
  const bench = await startBenchPlatform(dataDir, sizes.ingestCells);
  try {
    console.log(`  set-up: ${bench.cells.length} cells in ${bench.setupSeconds.toFixed(1)} s`);
    await storeOneWindow(bench);
    return await benchGridStatusHttp(bench, sizes);
  } finally {
    await bench.close();
  }
}
