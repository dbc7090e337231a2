/**
 * The staging of an export (docs/export.md "Jobs"): the selection as compact rows (UTC and local
 * time, feeder number, phase, parameter, value, quality code) in the export's own DuckDB
 * database, one bounded `INSERT ... SELECT` per chunk of feeders and time, and the gap runs.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import {
  type ExportInterval,
  type ExportParameter,
  exportParameter,
  INTERVAL_MS,
} from "./contract.ts";
import type { ExportFeeder, WriteContext, WriteJob } from "./writer.ts";

export const PHASES = ["L1", "L2", "L3", "N"] as const;
export const QUALITY = ["OK", "FLAGGED", "MISSING"] as const;
/** Rows staged per statement: bounded memory, progress and a cancel point about every second. */
const CHUNK_ROWS = 2_000_000;

export const text = (s: string) => `'${s.replaceAll("'", "''")}'`;
export const micros = (ms: number) => `make_timestamp(${ms * 1000})`;

/** Table and time column of each interval (core/ingest/schema.ts). */
const LEVEL: Readonly<Record<ExportInterval, { table: string; time: string }>> = {
  "20s": { table: "raw_measurements", time: "ts" },
  "10min": { table: "agg_10min", time: "slot" },
  "1h": { table: "agg_1h", time: "slot" },
  "1d": { table: "agg_1d", time: "slot" },
};
/** The PQ record at each interval: the 10-minute records, or their hourly and daily rollups. */
const PQ_LEVEL: Readonly<Record<Exclude<ExportInterval, "20s">, string>> = {
  "10min": "pq_10min",
  "1h": "pq_1h",
  "1d": "pq_1d",
};
const isHarmonic = (p: ExportParameter) => /^h\d+$/.test(p.key);

/**
 * The long layout staged chunk by chunk, every slot of every series and parameter, in the
 * file's order (station, node, feeder, time, phase, parameter): feeders in the outer loop, time
 * ranges inside, each chunk sorted on its own (a few million rows) so that the output needs no
 * sort of the whole export (DuckDB keeps insertion order).
 *
 * PQ quantities come from `pq_10min` at 10 minutes; hourly and daily from the rollups `pq_1h`,
 * `pq_1d` (mean unbalance, highest Pst and Plt), harmonics as the RMS of the hour's or day's
 * 10-minute values (the rollups keep none).
 */
export async function stage(
  connection: DuckDBConnection,
  alias: string,
  job: WriteJob,
  sorted: readonly ExportFeeder[],
  ctx: WriteContext,
): Promise<void> {
  const plan = await prepare(connection, alias, job, sorted);
  const { parameters, t, first, step, slots, rowsOf, total } = plan;
  await connection.run(`CREATE TABLE ${alias}.rows (time_utc TIMESTAMP, time_local TIMESTAMP,
    ord INTEGER, station ${t("station")}, node ${t("node")}, feeder_id ${t("feeder_id")},
    feeder ${t("feeder")}, phase ${t("phase")}, parameter ${t("parameter")}, value FLOAT,
    unit ${t("unit")}, quality ${t("quality")})`);
  const perFeeder = 4 * parameters.length;
  // Feeders per chunk over the whole period, or one feeder and a part of the period.
  const feedersPerChunk = Math.max(1, Math.floor(CHUNK_ROWS / Math.max(1, slots * perFeeder)));
  const slotsPerChunk = feedersPerChunk > 1
    ? slots
    : Math.max(1, Math.floor(CHUNK_ROWS / perFeeder));
  const sources = valueSources(job.interval, parameters);
  const values = parameters.map((p, k) =>
    `(${k}::UTINYINT, ${p.neutral}, ${text(p.key)}::${t("parameter")}, ${text(p.unit)}::${
      t("unit")
    })`
  ).join(", ");
  const pick = parameters.map((p, k) => `WHEN ${k} THEN ${sources.valueOf(p)}`).join(" ");
  const quality = (code: string) => `${text(code)}::${t("quality")}`;
  let done = 0;
  ctx.progress(0, total, "reading");
  for (let f = 0; f < sorted.length; f += feedersPerChunk) {
    const feederRange = `ord >= ${f} AND ord < ${f + feedersPerChunk}`;
    const series = `(SELECT series_id FROM ${alias}.feeders WHERE ${feederRange})`;
    for (let k = 0; k < slots; k += slotsPerChunk) {
      ctx.signal.throwIfAborted();
      const a = first + k * step;
      const b = Math.min(first + (k + slotsPerChunk) * step, first + slots * step);
      const grid = `SELECT ts, timezone(${text(job.timezone)}, timezone('UTC', ts)) AS local
        FROM generate_series(${micros(a)}, ${
        micros(b - step)
      }, INTERVAL ${step} MILLISECOND) s(ts)`;
      const feeders = `SELECT * FROM ${alias}.feeders WHERE ${feederRange}`;
      const params = `(VALUES ${values}) p(param, neutral, parameter, unit)`;
      // Stored rows drive the chunk when one table holds every value: a scan joined to the
      // small feeder, parameter and time tables, and the missing slots only of the series that
      // lack some (an anti join); else every slot is joined to each source (a hash join of the
      // grid with each table, twice as slow on 20-s values: docs/benchmarks.md).
      const from = sources.single
        ? `WITH m AS MATERIALIZED (${sources.measured(series, a, b)}),
            g AS (${grid}), f AS (${feeders}),
            n AS (SELECT series_id, count(*) AS c FROM m GROUP BY series_id)
          SELECT m.ts, m.local, f.*, p.param, p.parameter, p.unit,
            CASE p.param ${pick} END AS value${sources.flaggedColumn}
          FROM (
            SELECT m.*, m.at AS ts, g.local FROM m JOIN g ON g.ts = m.at
            UNION ALL BY NAME
            SELECT g.ts, g.local, s.series_id FROM g CROSS JOIN (
              SELECT f.series_id FROM f LEFT JOIN n USING (series_id)
              WHERE coalesce(n.c, 0) < ${(b - a) / step}) s
            ANTI JOIN m ON m.series_id = s.series_id AND m.at = g.ts
          ) m
          JOIN f ON f.series_id = m.series_id
          JOIN ${params} ON f.ph < 3 OR p.neutral`
        : `SELECT g.ts, g.local, f.*, p.param, p.parameter, p.unit,
            CASE p.param ${pick} END AS value${sources.flaggedColumn}
          FROM (${grid}) g
          CROSS JOIN (${feeders}) f
          JOIN ${params} ON f.ph < 3 OR p.neutral
          ${sources.joins(series, a, b)}`;
      await connection.run(`INSERT INTO ${alias}.rows
        SELECT ts, local, ord, station, node, feeder_id, feeder, phase, parameter, value, unit,
          CASE WHEN value IS NULL THEN ${quality("MISSING")}
            ${sources.flagged(quality("FLAGGED"))}ELSE ${quality("OK")} END
        FROM (${from})
        ORDER BY ord, ts, ph, param`);
      done += ((b - a) / step) * rowsOf.slice(f, f + feedersPerChunk).reduce((x, y) => x + y, 0);
      ctx.progress(done, total, "reading");
    }
  }
}

/** What both paths share: the ENUM types, the feeder table and the slot counts. */
export interface StagePlan {
  parameters: ExportParameter[];
  /** The qualified name of an ENUM type of the staging database. */
  t: (name: string) => string;
  /** First slot (ms), slot length (ms) and slots of the period. */
  first: number;
  step: number;
  slots: number;
  /** Rows of one slot per feeder (file order), and rows of the whole export. */
  rowsOf: number[];
  total: number;
}

/**
 * The names as ENUM types (one or two bytes a row, written to Parquet as dictionary codes
 * without hashing a string per row: docs/benchmarks.md) and `<alias>.feeders`: a row per
 * series (file order `ord`, phase index `ph`, names).
 */
export async function prepare(
  connection: DuckDBConnection,
  alias: string,
  job: WriteJob,
  sorted: readonly ExportFeeder[],
): Promise<StagePlan> {
  const parameters = job.parameters.map((key) => exportParameter(key)!);
  const enumOf = (values: readonly string[]) =>
    `ENUM (${[...new Set(values)].map(text).join(", ")})`;
  const types: Record<string, readonly string[]> = {
    station: sorted.map((f) => f.station_name),
    node: sorted.map((f) => f.node_name),
    feeder_id: sorted.map((f) => f.feeder_id),
    feeder: sorted.map((f) => f.feeder_name),
    phase: PHASES,
    parameter: parameters.map((p) => p.key),
    unit: parameters.map((p) => p.unit),
    quality: QUALITY,
  };
  for (const [name, values] of Object.entries(types)) {
    await connection.run(`CREATE TYPE ${alias}.gw_${name} AS ${enumOf(values)}`);
  }
  const t = (name: string) => `${alias}.gw_${name}`;
  await connection.run(`CREATE TABLE ${alias}.feeders (ord INTEGER, ph UTINYINT,
    series_id INTEGER, station ${t("station")}, node ${t("node")}, feeder_id ${t("feeder_id")},
    feeder ${t("feeder")}, phase ${t("phase")})`);
  // A probe that never reported gets an id no stored series has: its rows are all gaps.
  let pseudo = -1;
  const rows = sorted.flatMap((f, ord) =>
    PHASES.map((phase, k) => {
      const id = f.series[k] ?? (k === 3 ? undefined : pseudo--);
      return id === undefined
        ? null
        : `(${ord}, ${k}, ${id}, ${text(f.station_name)}, ${text(f.node_name)}, ${
          text(f.feeder_id)
        }, ${text(f.feeder_name)}, '${phase}')`;
    }).filter((r) => r !== null)
  );
  if (rows.length) await connection.run(`INSERT INTO ${alias}.feeders VALUES ${rows.join(", ")}`);
  const step = INTERVAL_MS[job.interval];
  const first = Math.ceil(job.from / step) * step;
  const slots = Math.max(0, Math.ceil((job.to - first) / step));
  // Rows of one slot per feeder: three phases, and N for the parameters it carries (current).
  const neutral = parameters.filter((p) => p.neutral).length;
  const rowsOf = sorted.map((f) =>
    3 * parameters.length + (f.series[3] === undefined ? 0 : neutral)
  );
  const total = slots * rowsOf.reduce((x, y) => x + y, 0);
  return { parameters, t, first, step, slots, rowsOf, total };
}

/** Where each parameter's value is read: the measurement level, the PQ record, its harmonics. */
export function valueSources(interval: ExportInterval, parameters: readonly ExportParameter[]) {
  const aggregate = interval !== "20s";
  const measured = parameters.filter((p) => !p.pq);
  const rolledHarmonics = interval === "1h" || interval === "1d";
  const record = parameters.filter((p) => p.pq && !(rolledHarmonics && isHarmonic(p)));
  const harmonics = parameters.filter((p) => p.pq && rolledHarmonics && isHarmonic(p));
  const column = (p: ExportParameter) => aggregate ? p.aggregate : p.raw;
  const measuredColumns = [...new Set(measured.map(column)), ...(aggregate ? ["flagged"] : [])];
  const flaggedParams = measured.map((p) => parameters.indexOf(p));
  return {
    valueOf: (p: ExportParameter) =>
      !p.pq ? `m.${column(p)}` : harmonics.includes(p) ? `h.${p.key}` : `q.${p.key}`,
    /** An aggregate marked flagged by the core is FLAGGED (PQ records carry no flag). */
    flagged: (code: string) =>
      aggregate && measured.length
        ? `WHEN flagged AND param IN (${flaggedParams.join(", ")}) THEN ${code} `
        : "",
    flaggedColumn: aggregate && measured.length ? ", m.flagged" : "",
    /** Every value in the measurement table (no PQ record): the stored rows can drive. */
    single: measured.length === parameters.length,
    /** The measured columns of the chunk's series, on the grid's slots only. */
    measured: (series: string, a: number, b: number) => {
      const level = LEVEL[interval];
      return `SELECT m.series_id, m.${level.time} AS at, ${
        measuredColumns.map((c) => `m.${c}`).join(", ")
      }
        FROM ${level.table} m WHERE m.series_id IN ${series}
          AND m.${level.time} >= ${micros(a)} AND m.${level.time} < ${micros(b)}
          AND epoch_ms(m.${level.time}) % ${INTERVAL_MS[interval]} = 0`;
    },
    joins(series: string, a: number, b: number): string {
      const out: string[] = [];
      const on = (x: string) => `${x}.series_id = f.series_id AND ${x}.at = g.ts`;
      if (measured.length) out.push(`LEFT JOIN (${this.measured(series, a, b)}) m ON ${on("m")}`);
      if (record.length && interval !== "20s") {
        out.push(`LEFT JOIN (
          SELECT series_id, slot AS at, ${record.map((p) => p.key).join(", ")}
          FROM ${PQ_LEVEL[interval]} WHERE series_id IN ${series}
            AND slot >= ${micros(a)} AND slot < ${micros(b)}
        ) q ON ${on("q")}`);
      }
      if (harmonics.length) {
        const unit = interval === "1h" ? "hour" : "day";
        out.push(`LEFT JOIN (
          SELECT series_id, date_trunc('${unit}', slot) AS at,
            ${
          harmonics.map((p) => `sqrt(avg(${p.key}::DOUBLE * ${p.key}))::FLOAT AS ${p.key}`).join(
            ", ",
          )
        }
          FROM pq_10min WHERE series_id IN ${series}
            AND slot >= ${micros(a)} AND slot < ${micros(b)}
          GROUP BY ALL
        ) h ON ${on("h")}`);
      }
      return out.join("\n");
    },
  };
}

/** The gap runs (consecutive missing slots per series and parameter), in `<alias>.gaps`. */
export async function gapSummary(
  connection: DuckDBConnection,
  alias: string,
  job: WriteJob,
  /** The missing values: ord, the names, phase, parameter and time_utc of each. */
  missing = `SELECT ord, station, node, feeder_id, feeder, phase, parameter, time_utc
    FROM ${alias}.rows WHERE quality = 'MISSING'`,
): Promise<GapRun[]> {
  const step = INTERVAL_MS[job.interval];
  const name = (c: string) => `any_value(${c})::VARCHAR AS ${c}`;
  await connection.run(`CREATE TABLE ${alias}.gaps AS
    SELECT ${["station", "node", "feeder_id", "feeder"].map(name).join(", ")},
      phase::VARCHAR AS phase, parameter::VARCHAR AS parameter, min(time_utc) AS gap_start,
      max(time_utc) + INTERVAL ${step} MILLISECOND AS gap_end, count(*) AS missing_slots
    FROM (SELECT ord, station, node, feeder_id, feeder, phase, parameter, time_utc,
        epoch_ms(time_utc) - ${step} * row_number() OVER (
          PARTITION BY ord, phase, parameter ORDER BY time_utc) AS run
      FROM (${missing}))
    GROUP BY ord, phase, parameter, run
    ORDER BY ord, phase, parameter, gap_start`);
  const result = await connection.runAndReadAll(`SELECT station, node, feeder, phase, parameter,
      strftime(gap_start, '%Y-%m-%dT%H:%M:%SZ'), strftime(gap_end, '%Y-%m-%dT%H:%M:%SZ'),
      missing_slots::DOUBLE, count(*) OVER ()::DOUBLE
    FROM ${alias}.gaps LIMIT 100`);
  return (result.getRows() as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    number,
    number,
  ][]).map(([station, node, feeder, phase, parameter, start, end, slots, total]) => ({
    station,
    node,
    feeder,
    phase,
    parameter,
    start,
    end,
    slots,
    total,
  }));
}

/** One gap run for the README (the first 100; `total` runs in all). */
export interface GapRun {
  station: string;
  node: string;
  feeder: string;
  phase: string;
  parameter: string;
  start: string;
  end: string;
  slots: number;
  total: number;
}
