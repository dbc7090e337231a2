/**
 * Grid status for N nodes: `evaluateGridStatus` over NodeTopology arrays and a LatestValues
 * filled from one simulated window (in-process, no I/O), and the real endpoint
 * `GET /evm/grid-monitoring/grid-status?level=LV` of a served platform with N nodes.
 */
import { evaluateGridStatus, LatestValues, type NodeTopology } from "../../core/mod.ts";
import { allocateColumns, generateColumns, WINDOW_MS } from "../../core/simulator/mod.ts";
import type { Sizes } from "./lib/options.ts";
import type { BenchPlatform } from "./lib/platform.ts";
import { atMost, type Result } from "./lib/report.ts";
import { summarize } from "./lib/stats.ts";
import { timeRepeated } from "./lib/timing.ts";
import { lvgridCell, SEED } from "./lib/workload.ts";

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

/** Makes every series of the bench cells current again (the ingest ran minutes ago). */
function refreshLatest(bench: BenchPlatform, now: number): void {
  const { measurements } = bench.platform.services;
  for (const cell of bench.cells) {
    for (const feeder of cell.feeders) {
      for (let phase = 0; phase < 4; phase++) {
        const id = measurements.seriesId(cell.cellId, feeder.slot, phase);
        if (id === undefined) continue;
        const latest = measurements.latest;
        latest.update(id, now, latest.u(id), latest.i(id));
      }
    }
  }
}

/** Times the HTTP endpoint (token of the customer's administrator, real socket). */
export async function benchGridStatusHttp(bench: BenchPlatform, sizes: Sizes): Promise<Result[]> {
  const token = bench.token;
  refreshLatest(bench, Date.now() - 1_000);
  const nodes = bench.cells.length;
  let bytes = 0;
  const samples = await timeRepeated(async () => {
    const res = await fetch(`${bench.baseUrl}/evm/grid-monitoring/grid-status?level=LV`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`Cannot read the grid status: ${res.status} ${body}`);
    bytes = body.length;
  }, { warmup: 3, repeats: sizes.statusHttpRepeats });
  const s = summarize(samples);
  console.log(
    `  grid status over HTTP: ${nodes} nodes, ${(bytes / 1e6).toFixed(1)} MB per answer, ` +
      `p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms`,
  );
  return [
    {
      name: `Grid status, GET /evm/.../grid-status, ${nodes} nodes, p50`,
      value: s.p50,
      unit: "ms",
    },
    {
      name: `Grid status, GET /evm/.../grid-status, ${nodes} nodes, p99`,
      value: s.p99,
      unit: "ms",
      target: atMost(50, "<= 50 ms at 5,000 nodes"),
      scaled: nodes < 5_000,
    },
  ];
}
