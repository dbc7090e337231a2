/**
 * Writes an export's file with DuckDB itself (docs/export.md): the selection is staged in a
 * DuckDB database of its own (ATTACH, stage.ts), then `COPY ... TO` writes the CSV or Parquet
 * files (copy.ts: one per folder of the directory structure, long or wide layout) with the names
 * looked up per row, or `CREATE TABLE ... AS` fills the DuckDB file. The files and a README.txt
 * are zipped by streaming from disk; nothing is held in memory. A failure or a cancel removes
 * the work folder: no partial file remains.
 */
import { mkdir, rm, stat } from "node:fs/promises";
import type { DuckDBConnection } from "@duckdb/node-api";
import { zipFolder } from "./zip.ts";
import {
  type DirectoryStructure,
  type ExportFormat,
  type ExportInterval,
  type ExportLayout,
} from "./contract.ts";
import { copyOut } from "./copy.ts";
import { readme } from "./readme.ts";
import { gapSummary, prepare, stage, text } from "./stage.ts";
import { directApplies, prepareDirect } from "./direct.ts";

export { folderName, foldersOf } from "./copy.ts";
export type { GapRun } from "./stage.ts";
import type { GapRun } from "./stage.ts";

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
  /** Long (a row per parameter) or wide (a column per parameter; CSV and Parquet). */
  layout: ExportLayout;
  structure: DirectoryStructure;
  timezone: string;
  /** Field separator and decimal mark of the customer's number format. */
  separator: string;
  decimalMark: string;
  /** Take the staged path even where the direct one applies (the benchmark compares both). */
  staged?: boolean;
}

/** Progress and cancel of a running write. */
export interface WriteContext {
  signal: AbortSignal;
  progress(rowsDone: number, rowsTotal: number, stage: string): void;
  /** The connection is the export's own: a cancel interrupts its running statement. */
  exclusive?: boolean;
}

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
  const interrupt = () => connection.interrupt();
  if (ctx.exclusive) ctx.signal.addEventListener("abort", interrupt);
  try {
    // DuckDB measures a statement's progress only with its progress bar on (not printed).
    if (ctx.exclusive) {
      await connection.run("SET enable_progress_bar = true");
      await connection.run("SET enable_progress_bar_print = false");
    }
    await attach(`${work}/stage.duckdb`, alias);
    const sorted = sortFeeders(feeders);
    const data = `${work}/out`;
    let gaps: GapRun[];
    let direct: Awaited<ReturnType<typeof prepareDirect>> | undefined;
    let copied: ((q: string, k: number, n: number) => Promise<unknown>) | undefined;
    if (directApplies(job)) {
      // Straight from the stored rows; only the missing slots are staged (direct.ts).
      const plan = await prepare(connection, alias, job, sorted);
      ctx.progress(0, plan.total, "reading");
      direct = await prepareDirect(connection, alias, job, sorted, plan);
      ctx.signal.throwIfAborted();
      gaps = await gapSummary(connection, alias, job, direct.missing());
      copied = (q, k, n) =>
        tracked(
          connection,
          q,
          (p) => ctx.progress((k + p) / n * plan.total, plan.total, "writing"),
        );
    } else {
      await stage(connection, alias, job, sorted, ctx);
      ctx.signal.throwIfAborted();
      ctx.progress(-1, -1, "writing");
      gaps = await gapSummary(connection, alias, job);
    }
    if (job.format === "duckdb") {
      const out = `${alias}_out`;
      await attach(`${data}/${job.baseName}.duckdb`, out);
      const measurements = direct
        ? `SELECT time_utc, time_local, ${
          ["station", "node", "feeder_id", "feeder", "phase", "parameter"].map((c) =>
            `${c}::VARCHAR AS ${c}`
          ).join(", ")
        }, value, unit::VARCHAR AS unit, quality::VARCHAR AS quality FROM (${direct.select()})`
        : longSelect(alias, "", true);
      const create = `CREATE TABLE ${out}.measurements AS ${measurements}`;
      await (copied ? copied(create, 0, 1) : connection.run(create));
      await connection.run(`CREATE TABLE ${out}.feeders AS
        SELECT series_id, station::VARCHAR AS station, node::VARCHAR AS node,
          feeder_id::VARCHAR AS feeder_id, feeder::VARCHAR AS feeder, phase::VARCHAR AS phase
        FROM ${alias}.feeders
        WHERE series_id >= 0 ORDER BY ord, ph`);
      await connection.run(`CREATE TABLE ${out}.gaps AS SELECT * FROM ${alias}.gaps`);
      await detach(out);
    } else {
      await copyOut(connection, alias, job, sorted, data, ctx.signal, direct?.select, copied);
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
    ctx.signal.removeEventListener("abort", interrupt);
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

/** The long layout of the staged rows (names as ENUM columns, typed values), in staging order. */
export function longSelect(alias: string, where = "", varchar = false): string {
  const names = ["station", "node", "feeder_id", "feeder", "phase", "parameter"];
  const text = (c: string) => varchar ? `${c}::VARCHAR AS ${c}` : c;
  return `SELECT time_utc, time_local, ${names.map(text).join(", ")}, value, ${text("unit")},
    ${text("quality")} FROM ${alias}.rows ${where}`;
}

/**
 * Runs a statement while reporting DuckDB's own progress of it (0..1) twice a second: the
 * direct path is one COPY per file.
 */
async function tracked(
  connection: DuckDBConnection,
  statement: string,
  report: (fraction: number) => void,
): Promise<void> {
  const timer = setInterval(() => {
    const percentage = connection.progress.percentage;
    if (percentage >= 0) report(Math.min(1, percentage / 100));
  }, 500);
  try {
    await connection.run(statement);
    report(1);
  } finally {
    clearInterval(timer);
  }
}
