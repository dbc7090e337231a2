/**
 * Writes an export's file with DuckDB itself (docs/export.md): the selection is staged in a
 * DuckDB database of its own (ATTACH), one bounded INSERT per time chunk (progress and cancel
 * between chunks, other readers of the connection interleave), then `COPY ... TO` writes the
 * CSV or Parquet files (one per folder of the directory structure), or the staging database is
 * the DuckDB file itself. The files and a README.txt are zipped by streaming from disk; nothing
 * is held in memory. A failure or a cancel removes the work folder: no partial file remains.
 */
import { mkdir, rm, stat } from "node:fs/promises";
import type { DuckDBConnection } from "@duckdb/node-api";
import { zipFolder } from "./zip.ts";
import {
  type DirectoryStructure,
  type ExportFormat,
  type ExportInterval,
  exportParameter,
  INTERVAL_MS,
} from "./contract.ts";
import { readme } from "./readme.ts";

/** A feeder to export: its names and its series (L1, L2, L3, N; undefined: never reported). */
export interface ExportFeeder {
  feeder_id: string;
  feeder_name: string;
  node_name: string;
  station_name: string;
  series: readonly (number | undefined)[];
}

/** What to write. */
export interface WriteJob {
  key: string;
  /** File name of the data inside the zip, without extension (GDE_<name>_<period>). */
  baseName: string;
  from: number;
  to: number;
  interval: ExportInterval;
  parameters: readonly string[];
  format: ExportFormat;
  structure: DirectoryStructure;
  timezone: string;
  /** Field separator and decimal mark of the customer's number format. */
  separator: string;
  decimalMark: string;
}

/** Progress and cancel of a running write. */
export interface WriteContext {
  signal: AbortSignal;
  progress(rowsDone: number, rowsTotal: number, stage: string): void;
}

const PHASES = ["L1", "L2", "L3", "N"] as const;
/** Rows staged per statement: bounded memory, progress and a cancel point about every second. */
const CHUNK_ROWS = 2_000_000;

const text = (s: string) => `'${s.replaceAll("'", "''")}'`;
const micros = (ms: number) => `make_timestamp(${ms * 1000})`;

/** Table and time column of each interval (core/ingest/schema.ts). */
const LEVEL: Readonly<Record<ExportInterval, { table: string; time: string }>> = {
  "20s": { table: "raw_measurements", time: "ts" },
  "10min": { table: "agg_10min", time: "slot" },
  "1h": { table: "agg_1h", time: "slot" },
  "1d": { table: "agg_1d", time: "slot" },
};

/** Writes the export to `target` (a zip file); returns its size in bytes. */
export async function writeExport(
  connection: DuckDBConnection,
  job: WriteJob,
  feeders: readonly ExportFeeder[],
  target: string,
  ctx: WriteContext,
): Promise<number> {
  const work = `${target}.part`;
  const alias = `gde_${job.key.replace(/[^a-zA-Z0-9]/g, "")}`;
  await rm(work, { recursive: true, force: true });
  await mkdir(`${work}/out`, { recursive: true });
  let attached = false;
  try {
    await connection.run(`ATTACH ${text(`${work}/stage.duckdb`)} AS ${alias}`);
    attached = true;
    await stage(connection, alias, job, feeders, ctx);
    ctx.signal.throwIfAborted();
    ctx.progress(-1, -1, "writing");
    const gaps = await gapSummary(connection, alias, job);
    const data = `${work}/out`;
    if (job.format === "duckdb") {
      await connection.run(`DETACH ${alias}`);
      attached = false;
      await Deno.rename(`${work}/stage.duckdb`, `${data}/${job.baseName}.duckdb`);
    } else {
      await copyOut(connection, alias, job, data);
      await connection.run(`DETACH ${alias}`);
      attached = false;
    }
    ctx.signal.throwIfAborted();
    await Deno.writeTextFile(`${data}/README.txt`, readme(job, feeders, gaps));
    ctx.progress(-1, -1, "zipping");
    await zipFolder(data, `${work}/export.zip`, {
      signal: ctx.signal,
      store: job.format !== "csv",
    });
    await Deno.rename(`${work}/export.zip`, target);
    return (await stat(target)).size;
  } catch (error) {
    await rm(target, { force: true });
    throw error;
  } finally {
    if (attached) await connection.run(`DETACH ${alias}`).catch(() => undefined);
    await rm(work, { recursive: true, force: true });
  }
}

/** The long layout staged chunk by chunk, every slot of every series and parameter. */
async function stage(
  connection: DuckDBConnection,
  alias: string,
  job: WriteJob,
  feeders: readonly ExportFeeder[],
  ctx: WriteContext,
): Promise<void> {
  await connection.run(`CREATE TABLE ${alias}.feeders (series_id INTEGER, station VARCHAR,
    node VARCHAR, feeder_id VARCHAR, feeder VARCHAR, phase VARCHAR)`);
  // A probe that never reported gets an id no stored series has: its rows are all gaps.
  let pseudo = -1;
  const rows = feeders.flatMap((f) =>
    PHASES.map((phase, k) => {
      const id = f.series[k] ?? (k === 3 ? undefined : pseudo--);
      return id === undefined
        ? null
        : `(${id}, ${text(f.station_name)}, ${text(f.node_name)}, ${text(f.feeder_id)}, ${
          text(f.feeder_name)
        }, '${phase}')`;
    }).filter((r) => r !== null)
  );
  if (rows.length) await connection.run(`INSERT INTO ${alias}.feeders VALUES ${rows.join(", ")}`);
  await connection.run(`CREATE TABLE ${alias}.measurements (time_utc TIMESTAMP,
    time_local TIMESTAMP, station VARCHAR, node VARCHAR, feeder_id VARCHAR, feeder VARCHAR,
    phase VARCHAR, parameter VARCHAR, value FLOAT, unit VARCHAR, quality VARCHAR)`);
  const parameters = job.parameters.map((key) => exportParameter(key)!).filter(Boolean);
  const seriesRows = rows.length * parameters.length;
  const step = INTERVAL_MS[job.interval];
  const first = Math.ceil(job.from / step) * step;
  const slots = Math.max(0, Math.ceil((job.to - first) / step));
  const total = slots * seriesRows;
  const perChunk = Math.max(1, Math.floor(CHUNK_ROWS / Math.max(1, seriesRows)));
  const level = LEVEL[job.interval];
  const aggregate = job.interval !== "20s";
  const column = (p: NonNullable<ReturnType<typeof exportParameter>>) =>
    aggregate ? p.aggregate : p.raw;
  const values = parameters.map((p) => `(${text(p.key)}, ${text(p.unit)}, ${p.neutral})`);
  const pick = parameters.map((p) => `WHEN ${text(p.key)} THEN m.${column(p)}`).join(" ");
  const flagged = aggregate ? "WHEN flagged THEN 'FLAGGED' " : "";
  let done = 0;
  ctx.progress(0, total, "reading");
  for (let k = 0; k < slots; k += perChunk) {
    ctx.signal.throwIfAborted();
    const a = first + k * step;
    const b = Math.min(first + (k + perChunk) * step, first + slots * step);
    await connection.run(`INSERT INTO ${alias}.measurements
      SELECT ts, timezone(${text(job.timezone)}, timezone('UTC', ts)), station, node,
        feeder_id, feeder, phase, parameter, value, unit,
        CASE WHEN value IS NULL THEN 'MISSING' ${flagged}ELSE 'OK' END
      FROM (
        SELECT g.ts, f.station, f.node, f.feeder_id, f.feeder, f.phase, p.parameter, p.unit,
          CASE p.parameter ${pick} END AS value${aggregate ? ", m.flagged" : ""}
        FROM generate_series(${micros(a)}, ${micros(b - step)}, INTERVAL ${step} MILLISECOND) g(ts)
        CROSS JOIN ${alias}.feeders f
        JOIN (VALUES ${values.join(", ")}) p(parameter, unit, neutral)
          ON f.phase <> 'N' OR p.neutral
        LEFT JOIN (
          SELECT m.*, m.${level.time} AS at FROM ${level.table} m
          JOIN ${alias}.feeders s ON m.series_id = s.series_id
          WHERE m.${level.time} >= ${micros(a)} AND m.${level.time} < ${micros(b)}
        ) m ON m.series_id = f.series_id AND m.at = g.ts
      )`);
    done += ((b - a) / step) * seriesRows;
    ctx.progress(done, total, "reading");
  }
}

/** The gap runs (consecutive missing slots per series and parameter), in `<alias>.gaps`. */
async function gapSummary(
  connection: DuckDBConnection,
  alias: string,
  job: WriteJob,
): Promise<GapRun[]> {
  const step = INTERVAL_MS[job.interval];
  await connection.run(`CREATE TABLE ${alias}.gaps AS
    SELECT station, node, feeder_id, feeder, phase, parameter, min(time_utc) AS gap_start,
      max(time_utc) + INTERVAL ${step} MILLISECOND AS gap_end, count(*) AS missing_slots
    FROM (SELECT *, epoch_ms(time_utc) - ${step} * row_number() OVER (
        PARTITION BY feeder_id, phase, parameter ORDER BY time_utc) AS run
      FROM ${alias}.measurements WHERE quality = 'MISSING')
    GROUP BY station, node, feeder_id, feeder, phase, parameter, run
    ORDER BY station, node, feeder, phase, parameter, gap_start`);
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
  ][])
    .map(([station, node, feeder, phase, parameter, start, end, slots, total]) => ({
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

/** The grouping columns of each directory structure. */
const FOLDERS: Readonly<Record<DirectoryStructure, readonly string[]>> = {
  flat: [],
  station: ["station"],
  node: ["station", "node"],
  feeder: ["station", "node", "feeder"],
  month: ["station", "node", "feeder", "month"],
};

/** A folder name from a grid name: no path separators or characters Windows refuses. */
export function folderName(name: string): string {
  // deno-lint-ignore no-control-regex
  const safe = name.replace(/[:<>"/\\|?*!\u0000-\u001f]/g, "_").trim().replace(/^\.+/, "_");
  return safe || "_";
}

/** COPY of the staged rows to CSV or Parquet, one file per folder of the structure. */
async function copyOut(
  connection: DuckDBConnection,
  alias: string,
  job: WriteJob,
  dir: string,
): Promise<void> {
  const csv = job.format === "csv";
  const value = job.decimalMark === "."
    ? "CAST(value AS VARCHAR)"
    : `replace(CAST(value AS VARCHAR), '.', ${text(job.decimalMark)})`;
  const select = csv
    ? `SELECT strftime(time_utc, '%Y-%m-%dT%H:%M:%SZ') AS "\ufefftime_utc",
        strftime(time_local, '%Y-%m-%d %H:%M:%S') AS time_local, station, node, feeder_id,
        feeder, phase, parameter, ${value} AS value, unit, quality`
    : `SELECT time_utc, time_local, station, node, feeder_id, feeder, phase, parameter, value,
        unit, quality`;
  const options = csv
    ? `(FORMAT csv, HEADER, DELIMITER ${text(job.separator)})`
    : `(FORMAT parquet, COMPRESSION zstd)`;
  const ext = csv ? "csv" : "parquet";
  const from = `${alias}.measurements`;
  const order = "ORDER BY station, node, feeder, phase, parameter, time_utc";
  const month = `strftime(time_utc, '%Y-%m')`;
  const columns = FOLDERS[job.structure];
  if (!columns.length) {
    await connection.run(
      `COPY (${select} FROM ${from} ${order}) TO ${
        text(`${dir}/${job.baseName}.${ext}`)
      } ${options}`,
    );
  } else {
    const expr = (c: string) => c === "month" ? month : c;
    const groups = (await connection.runAndReadAll(
      `SELECT DISTINCT ${columns.map(expr).join(", ")} FROM ${from} ORDER BY ALL`,
    )).getRows() as string[][];
    for (const group of groups) {
      const folder = `${dir}/${group.map(folderName).join("/")}`;
      await mkdir(folder, { recursive: true });
      const where = columns.map((c, k) => `${expr(c)} = ${text(group[k]!)}`).join(" AND ");
      const name = `${job.baseName}_${group.map(folderName).join("_")}.${ext}`;
      await connection.run(
        `COPY (${select} FROM ${from} WHERE ${where} ${order}) TO ${
          text(`${folder}/${name}`)
        } ${options}`,
      );
    }
  }
  const gapsOptions = csv ? options : `(FORMAT parquet, COMPRESSION zstd)`;
  await connection.run(
    `COPY (SELECT * FROM ${alias}.gaps) TO ${text(`${dir}/gaps.${ext}`)} ${gapsOptions}`,
  );
}
