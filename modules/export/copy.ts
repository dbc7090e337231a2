/**
 * The data files of a CSV or Parquet export (docs/export.md): `COPY ... TO` of the staged rows,
 * one file per folder of the directory structure, in the long layout (a row per time, feeder,
 * phase and parameter) or the wide one (a row per time, feeder and phase, a column per
 * parameter, by conditional aggregation in DuckDB).
 */
import { mkdir } from "node:fs/promises";
import type { DuckDBConnection } from "@duckdb/node-api";
import { type DirectoryStructure, exportParameter } from "./contract.ts";
import { micros, text } from "./stage.ts";
import { type ExportFeeder, longSelect, type WriteJob } from "./writer.ts";

/** A folder name from a grid name: no path separators or characters Windows refuses. */
export function folderName(name: string): string {
  // deno-lint-ignore no-control-regex
  const safe = name.replace(/[:<>"/\\|?*!\u0000-\u001f]/g, "_").trim().replace(/^\.+/, "_");
  return safe || "_";
}

/** A folder of the directory structure: its path and the staged rows it holds. */
export interface Folder {
  path: string[];
  where: string;
  /** The same as parts: the feeders (file order) and the UTC months, when not all. */
  ords?: number[];
  from?: number;
  to?: number;
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
      folders.push({ path, where, ords });
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
        ords,
        from: start,
        to: next,
      });
      start = next;
    }
  }
  return folders;
}

/**
 * COPY to CSV or Parquet, one file per folder of the structure: of the staged rows, or of the
 * long layout `direct` builds for a folder (direct.ts); `copied` runs each COPY (progress).
 */
export async function copyOut(
  connection: DuckDBConnection,
  alias: string,
  job: WriteJob,
  sorted: readonly ExportFeeder[],
  dir: string,
  signal: AbortSignal,
  direct?: (folder: Folder) => string,
  copied: (statement: string, k: number, n: number) => Promise<unknown> = (q) => connection.run(q),
): Promise<void> {
  const csv = job.format === "csv";
  const decimal = (column: string) =>
    job.decimalMark === "."
      ? `CAST(${column} AS VARCHAR)`
      : `replace(CAST(${column} AS VARCHAR), '.', ${text(job.decimalMark)})`;
  const bom = csv ? "\ufeff" : "";
  const parameters = job.parameters.map((key) => exportParameter(key)!);
  const header = (p: (typeof parameters)[number]) => p.unit ? `${p.key} (${p.unit})` : p.key;
  const select = (folder: Folder) => {
    const where = folder.where ? `WHERE ${folder.where}` : "";
    const long = direct ? direct(folder) : longSelect(alias, where);
    if (job.layout === "wide") {
      const columns = parameters.map((p, k) =>
        `${csv ? decimal(`v${k}`) : `v${k}`} AS "${header(p)}"`
      );
      // The worst quality of the row's values: MISSING, FLAGGED, then OK (the ENUM's order).
      return `SELECT ${times(csv, bom)}, station, node, feeder_id, feeder, phase,
          ${columns.join(", ")}, quality
        FROM (SELECT time_utc, time_local, ord, station, node, feeder_id, feeder, phase, ${
        parameters.map((p, k) => `max(value) FILTER (WHERE parameter = ${text(p.key)}) AS v${k}`)
          .join(", ")
      }, max(quality) AS quality
          FROM ${alias}.rows ${where} GROUP BY ALL)
        ORDER BY ord, time_utc, phase`;
    }
    return csv
      ? `SELECT ${times(true, bom)}, station, node, feeder_id, feeder, phase, parameter,
          ${decimal("value")} AS value, unit, quality
        FROM (${long})`
      : long;
  };
  const options = csv
    ? `(FORMAT csv, HEADER, DELIMITER ${text(job.separator)})`
    : `(FORMAT parquet, COMPRESSION zstd)`;
  const ext = csv ? "csv" : "parquet";
  const seen = new Set<string>();
  const folders = foldersOf(sorted, job.structure, job.from, job.to);
  for (const [k, folder] of folders.entries()) {
    signal.throwIfAborted();
    // Two feeders of one name in a node share the folder: their rows go in one file.
    let path = folder.path.join("/");
    for (let n = 2; seen.has(path); n++) path = `${folder.path.join("/")}_${n}`;
    seen.add(path);
    const name = [job.baseName, ...folder.path].join("_");
    await mkdir(`${dir}/${path}`, { recursive: true });
    await copied(
      `COPY (${select(folder)}) TO ${
        text(`${dir}/${path ? `${path}/` : ""}${name}.${ext}`)
      } ${options}`,
      k,
      folders.length,
    );
  }
  await connection.run(
    `COPY (SELECT * FROM ${alias}.gaps) TO ${text(`${dir}/gaps.${ext}`)} ${options}`,
  );
}

/** The two time columns: typed (Parquet), or ISO text (CSV, the first name after the BOM). */
function times(csv: boolean, bom: string): string {
  return csv
    ? `strftime(time_utc, '%Y-%m-%dT%H:%M:%SZ') AS "${bom}time_utc",
      strftime(time_local, '%Y-%m-%d %H:%M:%S') AS time_local`
    : "time_utc, time_local";
}
