/**
 * Visual statistics from rollups: the service's calls (query, typed arrays, phase combination,
 * answer shaping and JSON) on a file-backed DuckDB holding what each level serves at most with
 * `resolution=auto` for cells of 6 feeders x 4 probes: a year of `agg_1d` for N cells, and for
 * N / 5 cells (at most 200) 92 days of `agg_1h`, 7 days of `agg_10min` and 6 hours of 20-s values. The rows
 * are generated in SQL, slot by slot for every series (the order the aggregator writes them in),
 * so a query for a few series reads the same row groups as in production.
 */
import { openTimeSeriesStore } from "../../core/mod.ts";
import { DDL } from "../../core/ingest/schema.ts";
import {
  type FeederDirectory,
  type FeederRef,
  StatisticsService,
} from "../../modules/statistics/mod.ts";
import type { SeriesQuery } from "../../modules/statistics/contract.ts";
import { platformMemoryLimit, scalar } from "./lib/duck.ts";
import type { Sizes } from "./lib/options.ts";
import { atMost, type Result } from "./lib/report.ts";
import { summarize } from "./lib/stats.ts";
import { timeRepeated } from "./lib/timing.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The period ends at this UTC midnight; every level is filled up to it. */
const END = Date.parse("2026-11-16T00:00:00Z");
const FEEDERS = 6;
const PROBES = 4;

/** Series id of a cell's feeder (1..6) and probe (0..3): dense, like the store's. */
const seriesOf = (cell: number, feeder: number, probe: number) =>
  cell * FEEDERS * PROBES + (feeder - 1) * PROBES + probe + 1;

/**
 * Rows `k * series .. (k + count) * series` of a level: slot-major (every series of a slot, then
 * the next slot) from one range, so that no sort is needed. Values are realistic, with a daily
 * swing and deterministic noise from one hash per row.
 */
function rowsSql(first: number, stepMs: number, count: number, series: number): string {
  return `SELECT (x % ${series} + 1)::INTEGER AS s,
      ${first}::BIGINT + (x // ${series}) * ${stepMs}::BIGINT AS t,
      (hash(x) % 10000) / 10000.0 AS noise,
      sin(2 * pi() * (t % 86400000) / 86400000.0) AS swing,
      230 + 6 * swing + 3 * noise AS u, 60 + 40 * noise + 30 * swing AS i
    FROM range(${count * series}) r(x)`;
}

/** Fills one aggregate table with `slots` slots of `stepMs` ending at END, `perInsert` at a time. */
async function fillAggregate(
  run: (sql: string) => Promise<unknown>,
  table: string,
  stepMs: number,
  slots: number,
  perInsert: number,
  series: number,
): Promise<void> {
  const first = END - slots * stepMs;
  for (let k = 0; k < slots; k += perInsert) {
    const count = Math.min(perInsert, slots - k);
    await run(`INSERT INTO ${table} (series_id, slot, n, u_rms, u_min, u_max, i_rms, i_min, i_max,
        p_mean, q_mean, pf_mean, f_mean, f_min, f_max, flagged)
      SELECT s, make_timestamp(t * 1000), ${Math.round(stepMs / 20_000)}::USMALLINT,
        u::FLOAT, (u - 4)::FLOAT, (u + 4)::FLOAT, i::FLOAT, (i * 0.6)::FLOAT, (i * 1.5)::FLOAT,
        (i * 0.22)::FLOAT, (i * 0.05)::FLOAT, 0.97::FLOAT, (50 + 0.02 * noise)::FLOAT,
        49.97::FLOAT, 50.03::FLOAT, false
      FROM (${rowsSql(first + k * stepMs, stepMs, count, series)})`);
  }
}

/** Feeders f<cell>-<slot> of the synthetic grid, all at LV. */
function directory(): FeederDirectory {
  return {
    feeders: (_customer, _level, ids) =>
      Promise.resolve(ids.map((id): FeederRef => {
        const [cell, slot] = id.slice(1).split("-").map(Number) as [number, number];
        return {
          feeder_id: id,
          feeder_name: `Feeder ${slot}`,
          node_id: `n${cell}`,
          node_name: `Node ${cell}`,
          series: [0, 1, 2, 3].map((p) => seriesOf(cell, slot, p)),
        };
      })),
  };
}

/** Times the service's answers (JSON included) over the levels. */
export async function benchStatistics(dir: string, sizes: Sizes): Promise<Result[]> {
  const ts = await openTimeSeriesStore(`${dir}/statistics`, platformMemoryLimit());
  const c = ts.connection;
  try {
    // The primary key of the aggregate tables is left out so that the rows are written fast:
    // these reads never use it (a sequential scan with the series filter pushed down).
    for (const statement of DDL) {
      await c.run(statement.replace(/,\s*PRIMARY KEY \(series_id, slot\)/, ""));
    }
    const cells = sizes.statisticsCells;
    const series = cells * FEEDERS * PROBES;
    // The finer levels hold a fifth of the cells (at most 200): writing them for every cell
    // would take minutes. The daily level (the bar's) holds every cell.
    const fineCells = Math.max(10, Math.min(200, Math.floor(cells / 5)));
    const fineSeries = fineCells * FEEDERS * PROBES;
    const run = (sql: string) => c.run(sql);
    const started = performance.now();
    await fillAggregate(run, "agg_1d", DAY, 366, 31, series);
    await fillAggregate(run, "agg_1h", HOUR, 92 * 24, 24, fineSeries);
    await fillAggregate(run, "agg_10min", 10 * 60_000, 7 * 144, 144, fineSeries);
    const rawFrom = END - 6 * HOUR;
    for (let k = 0; k < 6 * 180; k += 90) {
      await run(`INSERT INTO raw_measurements (series_id, ts, u, i, p, q, pf, f)
        SELECT s, make_timestamp(t * 1000), u::FLOAT, i::FLOAT, (i * 0.22)::FLOAT,
          (i * 0.05)::FLOAT, 0.97::FLOAT, (50 + 0.02 * noise)::FLOAT
        FROM (${rowsSql(rawFrom + k * 20_000, 20_000, 90, fineSeries)})`);
    }
    await c.run("CHECKPOINT");
    const rows = await scalar(
      c,
      `SELECT (SELECT count(*) FROM agg_1d) + (SELECT count(*) FROM agg_1h) +
        (SELECT count(*) FROM agg_10min) + (SELECT count(*) FROM raw_measurements)`,
    );
    console.log(
      `  ${series} series, ${(rows / 1e6).toFixed(1)}M rows written in ${
        ((performance.now() - started) / 1000).toFixed(1)
      } s`,
    );

    const service = new StatisticsService(c, directory());
    // Ten feeders of cells spread over the whole id range: every row group holds some of them.
    const spread = (count: number) =>
      Array.from({ length: 10 }, (_, k) => {
        const cell = Math.floor((k * (count - 1)) / 9);
        return `f${cell}-${1 + (k % FEEDERS)}`;
      });
    const ten = spread(cells);
    const tenFine = spread(fineCells);
    const period = (ms: number) => ({
      from: new Date(END - ms).toISOString(),
      to: new Date(END).toISOString(),
      level: "LV" as const,
    });
    const time = async (fn: () => Promise<unknown>, repeats: number) =>
      summarize(
        await timeRepeated(async () => JSON.stringify(await fn()), { warmup: 3, repeats }),
      );
    const compare = (ms: number, feeders: string[]) => () =>
      service.compare("bench", {
        ...period(ms),
        feeders,
        parameter: "u",
        phase: "all",
        resolution: "auto",
      });
    const seriesCall = (ms: number, parameters: SeriesQuery["parameters"]) => () =>
      service.series("bench", {
        ...period(ms),
        feeders: [tenFine[3]!],
        parameters,
        resolution: "auto",
      });
    const year = await time(compare(366 * DAY, ten), 50);
    const quarter = await time(compare(92 * DAY, tenFine), 20);
    const week = await time(seriesCall(7 * DAY, ["u", "i"]), 20);
    const sixHours = await time(seriesCall(6 * HOUR, ["u", "i", "p"]), 20);
    const histogram = await time(
      () => service.histogram("bench", { ...period(7 * DAY), feeder: tenFine[5]!, parameter: "u" }),
      20,
    );
    const target = atMost(300, "<= 300 ms server, from rollups");
    const scale = `${cells} cells, ${series} series`;
    const fine = `${fineCells} cells`;
    return [
      {
        name: `Compare 10 feeders, one year (agg_1d, ${scale}), p50`,
        value: year.p50,
        unit: "ms",
        target,
      },
      {
        name: `Compare 10 feeders, one year (agg_1d, ${scale}), p99`,
        value: year.p99,
        unit: "ms",
        target,
      },
      {
        name: `Compare 10 feeders, 92 days (agg_1h, ${fine}), p50`,
        value: quarter.p50,
        unit: "ms",
      },
      {
        name: `Series, 1 feeder u+i, 7 days (agg_10min, ${fine}), p50`,
        value: week.p50,
        unit: "ms",
      },
      {
        name: `Series, 1 feeder u+i+p, 6 h of 20-s values (${fine}), p50`,
        value: sixHours.p50,
        unit: "ms",
      },
      {
        name: `Histogram, 1 feeder u, 7 days of 10-min means (${fine}), p50`,
        value: histogram.p50,
        unit: "ms",
      },
    ];
  } finally {
    await ts.close();
  }
}
