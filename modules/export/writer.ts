/**
 * Writes an export's file with DuckDB itself (docs/export.md): the selection is staged in a
 * DuckDB database of its own (ATTACH) as compact rows (times, feeder, phase and parameter
 * numbers, value, quality), one bounded INSERT per chunk of feeders and time (progress and
 * cancel between chunks, other readers of the connection interleave), then `COPY ... TO` writes
 * the CSV or Parquet files (one per folder of the directory structure) with the names looked up
 * per row, or `CREATE TABLE ... AS` fills the DuckDB file. The files and a README.txt are zipped by streaming from disk; nothing
 * is held in memory. A failure or a cancel removes the work folder: no partial file remains.
 */
import { mkdir, rm, stat } from "node:fs/promises";
import type { DuckDBConnection } from "@duckdb/node-api";
import { zipFolder } from "./zip.ts";
import {
  type DirectoryStructure,
  type ExportFormat,
  type ExportInterval,
  type ExportParameter,
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
  const attached: string[] = [];
  await rm(work, { recursive: true, force: true });
  await mkdir(`${work}/out`, { recursive: true });
  const attach = async (path: string, name: string) => {
    await connection.run(`ATTACH ${text(path)} AS ${name}`);
    attached.push(name);
  };
  const detach = async (name: string) => {
    attached.splice(attached.indexOf(name), 1);
    await connection.run(`DETACH ${name}`);
  };
  try {
    await attach(`${work}/stage.duckdb`, alias);
    const sorted = sortFeeders(feeders);
    const names = lookups(sorted, job);
    await stage(connection, alias, job, sorted, ctx);
    ctx.signal.throwIfAborted();
    ctx.progress(-1, -1, "writing");
    const gaps = await gapSummary(connection, alias, job, names);
    const data = `${work}/out`;
    if (job.format === "duckdb") {
      const out = `${alias}_out`;
      await attach(`${data}/${job.baseName}.duckdb`, out);
      await connection.run(`CREATE TABLE ${out}.measurements AS ${names.select(alias)}`);
      await connection.run(`CREATE TABLE ${out}.feeders AS
        SELECT series_id, station, node, feeder_id, feeder, phase FROM ${alias}.feeders
        WHERE series_id >= 0 ORDER BY ord, ph`);
      await connection.run(`CREATE TABLE ${out}.gaps AS SELECT * FROM ${alias}.gaps`);
      await detach(out);
    } else {
      await copyOut(connection, alias, job, sorted, names, data, ctx.signal);
    }
    await detach(alias);
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
    for (const name of [...attached].reverse()) {
      await connection.run(`DETACH ${name}`).catch(() => undefined);
    }
    await rm(work, { recursive: true, force: true });
  }
}

const compare = (a: string, b: string) => a < b ? -1 : a > b ? 1 : 0;

/** Feeders in the file's order: station, node, feeder name, id. */
function sortFeeders(feeders: readonly ExportFeeder[]): ExportFeeder[] {
  return [...feeders].sort((a, b) =>
    compare(a.station_name, b.station_name) || compare(a.node_name, b.node_name) ||
    compare(a.feeder_name, b.feeder_name) || compare(a.feeder_id, b.feeder_id)
  );
}

const QUALITY = ["OK", "FLAGGED", "MISSING"] as const;
const MISSING = 2;

/** The names of a staged row's numbers, as SQL list literals looked up per row. */
function lookups(sorted: readonly ExportFeeder[], job: WriteJob) {
  const list = (items: readonly string[]) => `[${items.map(text).join(", ")}]`;
  const parameters = job.parameters.map((key) => exportParameter(key)!);
  const station = list(sorted.map((f) => f.station_name));
  const node = list(sorted.map((f) => f.node_name));
  const feederId = list(sorted.map((f) => f.feeder_id));
  const feeder = list(sorted.map((f) => f.feeder_name));
  const parameter = list(parameters.map((p) => p.key));
  const unit = list(parameters.map((p) => p.unit));
  const columns = (prefix = "") =>
    `${station}[${prefix}ord + 1] AS station, ${node}[${prefix}ord + 1] AS node,
      ${feederId}[${prefix}ord + 1] AS feeder_id, ${feeder}[${prefix}ord + 1] AS feeder,
      ${list(PHASES)}[${prefix}phase + 1] AS phase, ${parameter}[${prefix}param + 1] AS parameter`;
  return {
    columns,
    /** The long layout of the staged rows, typed (Parquet, DuckDB), in staging order. */
    select: (alias: string, where = "") =>
      `SELECT time_utc, time_local, ${columns()}, value, ${unit}[param + 1] AS unit,
        ${list(QUALITY)}[quality + 1] AS quality FROM ${alias}.rows ${where}`,
  };
}
type Lookups = ReturnType<typeof lookups>;

/**
 * The long layout staged chunk by chunk, every slot of every series and parameter, in the
 * file's order (station, node, feeder, time, phase, parameter): feeders in the outer loop, time
 * ranges inside, each chunk sorted on its own (a few million rows) so that the output needs no
 * sort of the whole export (DuckDB keeps insertion order).
 */
async function stage(
  connection: DuckDBConnection,
  alias: string,
  job: WriteJob,
  sorted: readonly ExportFeeder[],
  ctx: WriteContext,
): Promise<void> {
  await connection.run(`CREATE TABLE ${alias}.feeders (ord INTEGER, ph UTINYINT,
    series_id INTEGER, station VARCHAR, node VARCHAR, feeder_id VARCHAR, feeder VARCHAR,
    phase VARCHAR)`);
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
  await connection.run(`CREATE TABLE ${alias}.rows (time_utc TIMESTAMP, time_local TIMESTAMP,
    ord INTEGER, phase UTINYINT, param UTINYINT, value FLOAT, quality UTINYINT)`);
  const parameters = job.parameters.map((key) => exportParameter(key)!);
  const step = INTERVAL_MS[job.interval];
  const first = Math.ceil(job.from / step) * step;
  const slots = Math.max(0, Math.ceil((job.to - first) / step));
  // Rows of one slot per feeder: three phases, and N for the parameters it carries (current).
  const neutral = parameters.filter((p) => p.neutral).length;
  const rowsOf = sorted.map((f) =>
    3 * parameters.length + (f.series[3] === undefined ? 0 : neutral)
  );
  const total = slots * rowsOf.reduce((x, y) => x + y, 0);
  const perFeeder = 4 * parameters.length;
  // Feeders per chunk over the whole period, or one feeder and a part of the period.
  const feedersPerChunk = Math.max(1, Math.floor(CHUNK_ROWS / Math.max(1, slots * perFeeder)));
  const slotsPerChunk = feedersPerChunk > 1
    ? slots
    : Math.max(1, Math.floor(CHUNK_ROWS / perFeeder));
  const level = LEVEL[job.interval];
  const aggregate = job.interval !== "20s";
  const column = (p: ExportParameter) => aggregate ? p.aggregate : p.raw;
  const columns = [...new Set(parameters.map(column)), ...(aggregate ? ["flagged"] : [])];
  const values = parameters.map((p, k) => `(${k}::UTINYINT, ${p.neutral})`).join(", ");
  const pick = parameters.map((p, k) => `WHEN ${k} THEN m.${column(p)}`).join(" ");
  const flagged = aggregate ? "WHEN flagged THEN 1 " : "";
  let done = 0;
  ctx.progress(0, total, "reading");
  for (let f = 0; f < sorted.length; f += feedersPerChunk) {
    const feederRange = `ord >= ${f} AND ord < ${f + feedersPerChunk}`;
    for (let k = 0; k < slots; k += slotsPerChunk) {
      ctx.signal.throwIfAborted();
      const a = first + k * step;
      const b = Math.min(first + (k + slotsPerChunk) * step, first + slots * step);
      await connection.run(`INSERT INTO ${alias}.rows
        SELECT ts, local, ord, ph, param, value,
          (CASE WHEN value IS NULL THEN ${MISSING} ${flagged}ELSE 0 END)::UTINYINT
        FROM (
          SELECT g.ts, g.local, f.ord, f.ph, p.param,
            CASE p.param ${pick} END AS value${aggregate ? ", m.flagged" : ""}
          FROM (SELECT ts, timezone(${text(job.timezone)}, timezone('UTC', ts)) AS local
            FROM generate_series(${micros(a)}, ${micros(b - step)}, INTERVAL ${step} MILLISECOND)
              s(ts)) g
          CROSS JOIN (SELECT ord, ph, series_id FROM ${alias}.feeders WHERE ${feederRange}) f
          JOIN (VALUES ${values}) p(param, neutral) ON f.ph < 3 OR p.neutral
          LEFT JOIN (
            SELECT m.series_id, m.${level.time} AS at, ${columns.map((c) => `m.${c}`).join(", ")}
            FROM ${level.table} m
            JOIN (SELECT series_id FROM ${alias}.feeders WHERE ${feederRange}) s
              ON m.series_id = s.series_id
            WHERE m.${level.time} >= ${micros(a)} AND m.${level.time} < ${micros(b)}
          ) m ON m.series_id = f.series_id AND m.at = g.ts
        )
        ORDER BY ord, ts, ph, param`);
      done += ((b - a) / step) * rowsOf.slice(f, f + feedersPerChunk).reduce((x, y) => x + y, 0);
      ctx.progress(done, total, "reading");
    }
  }
}

/** The gap runs (consecutive missing slots per series and parameter), in `<alias>.gaps`. */
async function gapSummary(
  connection: DuckDBConnection,
  alias: string,
  job: WriteJob,
  names: Lookups,
): Promise<GapRun[]> {
  const step = INTERVAL_MS[job.interval];
  await connection.run(`CREATE TABLE ${alias}.gaps AS
    SELECT ${names.columns()}, gap_start, gap_end, missing_slots FROM (
      SELECT ord, phase, param, min(time_utc) AS gap_start,
        max(time_utc) + INTERVAL ${step} MILLISECOND AS gap_end, count(*) AS missing_slots
      FROM (SELECT ord, phase, param, time_utc,
          epoch_ms(time_utc) - ${step} * row_number() OVER (
            PARTITION BY ord, phase, param ORDER BY time_utc) AS run
        FROM ${alias}.rows WHERE quality = ${MISSING})
      GROUP BY ord, phase, param, run)
    ORDER BY ord, phase, param, gap_start`);
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

/** A folder name from a grid name: no path separators or characters Windows refuses. */
export function folderName(name: string): string {
  // deno-lint-ignore no-control-regex
  const safe = name.replace(/[:<>"/\\|?*!\u0000-\u001f]/g, "_").trim().replace(/^\.+/, "_");
  return safe || "_";
}

/** A folder of the directory structure: its path and the staged rows it holds. */
interface Folder {
  path: string[];
  where: string;
}

/** The folders of a structure, in file order (months in UTC). */
export function foldersOf(
  sorted: readonly Pick<ExportFeeder, "station_name" | "node_name" | "feeder_name">[],
  structure: DirectoryStructure,
  from: number,
  to: number,
): Folder[] {
  if (structure === "flat") return [{ path: [], where: "" }];
  const depth = { station: 1, node: 2, feeder: 3, month: 3 }[structure];
  const groups = new Map<string, { path: string[]; ords: number[] }>();
  sorted.forEach((f, ord) => {
    const path = [f.station_name, f.node_name, f.feeder_name].slice(0, depth).map(folderName);
    const key = path.join("/");
    const group = groups.get(key) ?? { path, ords: [] };
    group.ords.push(ord);
    groups.set(key, group);
  });
  const folders: Folder[] = [];
  for (const { path, ords } of groups.values()) {
    const where = `ord IN (${ords.join(", ")})`;
    if (structure !== "month") {
      folders.push({ path, where });
      continue;
    }
    const month = new Date(from);
    let start = Date.UTC(month.getUTCFullYear(), month.getUTCMonth(), 1);
    while (start < to) {
      const d = new Date(start);
      const next = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
      folders.push({
        path: [...path, d.toISOString().slice(0, 7)],
        where: `${where} AND time_utc >= ${micros(start)} AND time_utc < ${micros(next)}`,
      });
      start = next;
    }
  }
  return folders;
}

/** COPY of the staged rows to CSV or Parquet, one file per folder of the structure. */
async function copyOut(
  connection: DuckDBConnection,
  alias: string,
  job: WriteJob,
  sorted: readonly ExportFeeder[],
  names: Lookups,
  dir: string,
  signal: AbortSignal,
): Promise<void> {
  const csv = job.format === "csv";
  const value = job.decimalMark === "."
    ? "CAST(value AS VARCHAR)"
    : `replace(CAST(value AS VARCHAR), '.', ${text(job.decimalMark)})`;
  const select = (where: string) =>
    csv
      ? `SELECT strftime(time_utc, '%Y-%m-%dT%H:%M:%SZ') AS "\ufefftime_utc",
        strftime(time_local, '%Y-%m-%d %H:%M:%S') AS time_local, station, node, feeder_id,
        feeder, phase, parameter, ${value} AS value, unit, quality
        FROM (${names.select(alias, where)})`
      : names.select(alias, where);
  const options = csv
    ? `(FORMAT csv, HEADER, DELIMITER ${text(job.separator)})`
    : `(FORMAT parquet, COMPRESSION zstd)`;
  const ext = csv ? "csv" : "parquet";
  const seen = new Set<string>();
  for (const folder of foldersOf(sorted, job.structure, job.from, job.to)) {
    signal.throwIfAborted();
    // Two feeders of one name in a node share the folder: their rows go in one file.
    let path = folder.path.join("/");
    for (let n = 2; seen.has(path); n++) path = `${folder.path.join("/")}_${n}`;
    seen.add(path);
    const name = [job.baseName, ...folder.path].join("_");
    const where = folder.where ? `WHERE ${folder.where}` : "";
    await mkdir(`${dir}/${path}`, { recursive: true });
    await connection.run(
      `COPY (${select(where)}) TO ${
        text(`${dir}/${path ? `${path}/` : ""}${name}.${ext}`)
      } ${options}`,
    );
  }
  await connection.run(
    `COPY (SELECT * FROM ${alias}.gaps) TO ${text(`${dir}/gaps.${ext}`)} ${options}`,
  );
}
