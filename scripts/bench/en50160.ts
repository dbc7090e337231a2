/**
 * EN 50160 over one ISO week from stored 10-minute means: one node through `nodeCompliance`
 * (query + evaluation), and N nodes loaded with `loadComplianceInputs` (200 nodes per query,
 * read column by column) and evaluated with `evaluateCompliance`, 200 at a time as a report of
 * many nodes would, the two times reported apart and summed.
 * The week of aggregates and of PQ records is generated in SQL (realistic levels, 0.2 % missing
 * slots, a few flagged ones) because a week of raw data for 2,000 nodes would be 180M rows.
 */
import {
  type ComplianceInput,
  EN50160_LV,
  evaluateCompliance,
  isoWeekRange,
  loadComplianceInputs,
  nodeCompliance,
  openTimeSeriesStore,
} from "../../core/mod.ts";
import { DDL, HARMONIC_ORDERS } from "../../core/ingest/schema.ts";
import { platformMemoryLimit } from "./lib/duck.ts";
import type { Sizes } from "./lib/options.ts";
import { atMost, type Result } from "./lib/report.ts";
import { summarize } from "./lib/stats.ts";
import { timeOnce, timeRepeated } from "./lib/timing.ts";

const WEEK = isoWeekRange(2026, 2);
const node = (k: number) => ({
  phases: [3 * k + 1, 3 * k + 2, 3 * k + 3],
  nominalVoltage: 230,
  nominalFrequency: 50 as const,
});

/**
 * SQL filling agg_10min and pq_10min with one week of 3 phases for nodes `[first, first + count)`
 * (deterministic noise), as two statements.
 */
export function weekOfAggregatesSql(first: number, count: number): string[] {
  const noise = (k: number) => `((hash(s, slot, ${k}) % 10000) / 10000.0)`;
  const harmonics = HARMONIC_ORDERS.map((h, k) =>
    `(${
      EN50160_LV.harmonics.maxPct[h as keyof typeof EN50160_LV.harmonics.maxPct]
    } * (0.2 + 0.4 * ${noise(20 + k)}))::FLOAT`
  );
  const day = "sin(2 * pi() * slot / 144)";
  const slot = `make_timestamp(${WEEK.from.getTime() * 1000}::BIGINT + slot * 600000000)`;
  const from = `FROM range(${3 * first + 1}, ${3 * (first + count) + 1}) a(s),
      range(${WEEK.slotCount}) b(slot) WHERE hash(s, slot, 98) % 500 <> 0`;
  return [
    `INSERT INTO agg_10min (series_id, slot, n, u_rms, u_min, u_max, i_rms, i_min, i_max,
      p_mean, q_mean, pf_mean, thd_u, thd_i, f_mean, f_min, f_max, flagged)
    SELECT s::INTEGER, ${slot}, 30,
      (230 + 8 * ${day} + 6 * ${noise(1)})::FLOAT, (226 + 8 * ${day})::FLOAT,
      (236 + 8 * ${day})::FLOAT, (80 + 40 * ${noise(2)})::FLOAT, 40::FLOAT, 160::FLOAT,
      (18 + 9 * ${noise(3)})::FLOAT, 2::FLOAT, 0.98::FLOAT, (3 + 1.5 * ${noise(4)})::FLOAT,
      (8 + 4 * ${noise(5)})::FLOAT, 50::FLOAT, (49.97 + 0.02 * ${noise(6)})::FLOAT,
      (50.01 + 0.02 * ${noise(7)})::FLOAT, hash((s - 1) // 3, slot, 99) % 1000 = 0
    ${from}`,
    `INSERT INTO pq_10min (series_id, slot, origin, windows, n_h, n_unbalance, unbalance, pst,
      plt, ${HARMONIC_ORDERS.map((h) => `h${h}`).join(", ")})
    SELECT s::INTEGER, ${slot}, 1, 0, 0, 0, (0.4 + 0.5 * ${noise(8)})::FLOAT,
      (0.3 + 0.4 * ${noise(9)})::FLOAT, (0.3 + 0.3 * ${noise(10)})::FLOAT, ${harmonics.join(", ")}
    ${from}`,
  ];
}

/** Writes the week of aggregates in chunks (one transaction of the PK index stays small). */
async function writeWeek(run: (sql: string) => Promise<unknown>, nodes: number): Promise<void> {
  for (let first = 0; first < nodes; first += 200) {
    for (const sql of weekOfAggregatesSql(first, Math.min(200, nodes - first))) await run(sql);
  }
}

/** Loads and evaluates one week for 1 and `sizes.complianceNodes` nodes. */
export async function benchCompliance(dir: string, sizes: Sizes): Promise<Result[]> {
  const ts = await openTimeSeriesStore(`${dir}/en50160`, platformMemoryLimit());
  const c = ts.connection;
  try {
    for (const statement of DDL) await c.run(statement);
    const nodes = sizes.complianceNodes;
    await writeWeek((sql) => c.run(sql), nodes);
    const { from, to } = WEEK;
    const one = summarize(
      await timeRepeated(() => nodeCompliance(c, node(0), from, to), { warmup: 3, repeats: 20 }),
    );
    // A report of many nodes loads them 200 at a time (one query each), evaluates and drops
    // them: 2,000 nodes' arrays at once would hold over 1 GB.
    let loadMs = 0;
    let evaluateMs = 0;
    for (let first = 0; first < nodes; first += 200) {
      const batch = Array.from({ length: Math.min(200, nodes - first) }, (_, k) => node(first + k));
      let inputs: ComplianceInput[] = [];
      loadMs += await timeOnce(async () => {
        inputs = await loadComplianceInputs(c, batch, from, to);
      });
      evaluateMs += await timeOnce(() => inputs.forEach((input) => evaluateCompliance(input)));
    }
    const target = atMost(250, "<= 250 ms at 2,000 nodes");
    const scaled = nodes < 2_000;
    return [
      {
        name: "EN 50160 week, 1 node, nodeCompliance (query + evaluation), p50",
        value: one.p50,
        unit: "ms",
      },
      {
        name: `EN 50160 week, ${nodes} nodes, evaluateCompliance only`,
        value: evaluateMs,
        unit: "ms",
        target,
        scaled,
      },
      {
        name: `EN 50160 week, ${nodes} nodes, loadComplianceInputs only (200 per query)`,
        value: loadMs,
        unit: "ms",
      },
      {
        name: `EN 50160 week, ${nodes} nodes, load + evaluate`,
        value: loadMs + evaluateMs,
        unit: "ms",
        target,
        scaled,
      },
    ];
  } finally {
    await ts.close();
  }
}
