/**
 * Runs the cell simulator against a platform over the ingestion protocol.
 *
 *   npx deno run -A scripts/simulate.ts --base-url http://localhost:8080 --cells cells.json \
 *     --seed 42 [--speed 10] [--start ISO] [--from ISO --to ISO] [--protocol 1]
 *
 * `--cells` is a JSON array of SimCell (core/simulator/topology.ts). Without `--from/--to` it
 * sends live until Ctrl-C (`--start` sets the simulated start, default now); with them it
 * backfills that range and exits.
 */
import { parseArgs } from "node:util";
import { parseSimCells, runBackfill, runLive, type SendStats } from "../core/simulator/mod.ts";

const USAGE = "Usage: simulate.ts --base-url URL --cells FILE [--seed N] [--speed N] " +
  "[--start ISO] [--from ISO --to ISO] [--protocol 1|2]";

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  Deno.exit(2);
}

function time(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) fail(`Cannot read --${name}: ${value} is not an ISO date`);
  return ms;
}

function number(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n)) fail(`Cannot read --${name}: ${value} is not a number`);
  return n;
}

const { values } = parseArgs({
  args: Deno.args,
  options: {
    "base-url": { type: "string" },
    cells: { type: "string" },
    seed: { type: "string" },
    speed: { type: "string" },
    start: { type: "string" },
    from: { type: "string" },
    to: { type: "string" },
    protocol: { type: "string" },
  },
});
const baseUrl = values["base-url"] ?? fail("Missing --base-url");
const cellsFile = values.cells ?? fail("Missing --cells");
const cells = await Deno.readTextFile(cellsFile).then((text) => parseSimCells(JSON.parse(text)))
  .catch((error: Error) => fail(`Cannot read ${cellsFile}: ${error.message}`));
const seed = number("seed", values.seed, 42);
const from = time("from", values.from);
const to = time("to", values.to);
if ((from === undefined) !== (to === undefined)) fail("Give both --from and --to, or neither");
// Protocol v2 by default (10-minute PQ records); v1 sends PQ values with every 20-s value.
const protocol = number("protocol", values.protocol, 2);
if (protocol !== 1 && protocol !== 2) fail(`Cannot read --protocol: ${protocol} is not 1 or 2`);

const controller = new AbortController();
Deno.addSignalListener("SIGINT", () => controller.abort());
let sent = 0;
const common = {
  baseUrl,
  cells,
  seed,
  signal: controller.signal,
  protocol: protocol as 1 | 2,
  onSent: () => {
    if (++sent % 10_000 === 0) console.error(`Simulator: ${sent} batches sent`);
  },
};

let stats: SendStats;
if (from !== undefined && to !== undefined) {
  console.error(`Simulator: backfilling ${cells.length} cells from ${values.from} to ${values.to}`);
  stats = await runBackfill({ ...common, fromMs: from, toMs: to });
} else {
  const speed = number("speed", values.speed, 1);
  console.error(`Simulator: ${cells.length} cells live at speed ${speed}, Ctrl-C to stop`);
  const startMs = time("start", values.start);
  stats = await runLive({ ...common, speed, ...(startMs === undefined ? {} : { startMs }) });
}
console.error(`Simulator: ${JSON.stringify(stats)}`);
Deno.exit(stats.rejected > 0 ? 1 : 0);
