/**
 * The direct path of an export (docs/export.md "Performance"): when every chosen parameter is a
 * column of one measurement table (no PQ quantity) and the layout is long, DuckDB writes the
 * file straight from the stored rows, without staging them. Only the missing slots are staged
 * (`<alias>.missing`: found by counting the stored rows per series and block of slots, a hash
 * aggregate, then an anti join of the incomplete blocks only), and the file's order (station,
 * node, feeder, time, phase, parameter) is one BIGINT key per row built from the feeder's
 * position, the slot, the phase and the parameter: the one sort of the export carries that key
 * and the value (12 bytes a row), every other column is computed from the key after the sort
 * (names by ENUM list lookup, local time by the zone's offsets of the period).
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { zoneOffset } from "../../kernel/mod.ts";
import { type ExportInterval, exportParameter } from "./contract.ts";
import type { Folder } from "./copy.ts";
import { micros, PHASES, type StagePlan, text, valueSources } from "./stage.ts";
import type { ExportFeeder, WriteJob } from "./writer.ts";

/** Table and time column of each interval (core/ingest/schema.ts). */
const LEVEL: Readonly<Record<ExportInterval, { table: string; time: string }>> = {
  "20s": { table: "raw_measurements", time: "ts" },
  "10min": { table: "agg_10min", time: "slot" },
  "1h": { table: "agg_1h", time: "slot" },
  "1d": { table: "agg_1d", time: "slot" },
};
/** Slots per block of the gap search (an hour of 20-s values): a short gap reads one block. */
const BLOCK_SLOTS = 180;

/** Whether an export can take the direct path: long layout, every value in one table. */
export function directApplies(job: WriteJob): boolean {
  return job.layout === "long" && !job.staged &&
    job.parameters.every((key) => exportParameter(key) && !exportParameter(key)!.pq);
}

/**
 * Stages the missing slots of every series of the export (`<alias>.missing (series_id, ts)`)
 * and returns the builders of the long layout and of the gap list.
 */
export async function prepareDirect(
  connection: DuckDBConnection,
  alias: string,
  job: WriteJob,
  sorted: readonly ExportFeeder[],
  plan: StagePlan,
) {
  const { parameters, t, first, step, slots } = plan;
  const level = LEVEL[job.interval];
  const sources = valueSources(job.interval, parameters);
  const aggregate = job.interval !== "20s";
  const columns = [
    ...new Set(parameters.map((p) => aggregate ? p.aggregate : p.raw)),
    ...(aggregate ? ["flagged"] : []),
  ];
  const end = first + slots * step;
  const block = BLOCK_SLOTS * step;
  const blocks = Math.ceil(slots / BLOCK_SLOTS);
  /** Stored rows of the chosen series on the slots of [a, b). */
  const stored = (series: string, a: number, b: number) =>
    `SELECT m.series_id, m.${level.time} AS slot_ts, ${columns.map((c) => `m.${c}`).join(", ")}
      FROM ${level.table} m WHERE m.series_id IN (${series})
        AND m.${level.time} >= ${micros(a)} AND m.${level.time} < ${micros(b)}
        AND epoch_ms(m.${level.time}) % ${step} = 0`;
  const allSeries = `SELECT series_id FROM ${alias}.feeders`;
  await connection.run(`CREATE TABLE ${alias}.missing (series_id INTEGER, ts TIMESTAMP)`);
  if (slots > 0) {
    // Blocks with fewer stored rows than slots (a series that never reported: all of them),
    // then their slots without a stored row.
    await connection.run(`CREATE TABLE ${alias}.incomplete AS
      WITH n AS (
        SELECT series_id, (epoch_ms(slot_ts) - ${first}) // ${block} AS b, count(*) AS c
        FROM (${stored(allSeries, first, end)}) GROUP BY ALL)
      SELECT f.series_id, b.b FROM ${alias}.feeders f CROSS JOIN range(${blocks}) b(b)
      LEFT JOIN n ON n.series_id = f.series_id AND n.b = b.b
      WHERE coalesce(n.c, 0) < least(${BLOCK_SLOTS}, ${slots} - b.b * ${BLOCK_SLOTS})`);
    const incomplete = `SELECT DISTINCT series_id FROM ${alias}.incomplete`;
    await connection.run(`INSERT INTO ${alias}.missing
      SELECT g.series_id, g.ts FROM (
        SELECT i.series_id, unnest(generate_series(
          make_timestamp((${first} + i.b * ${block}) * 1000),
          make_timestamp(least(${first} + (i.b + 1) * ${block}, ${end}) * 1000 - ${step * 1000}),
          INTERVAL ${step} MILLISECOND)) AS ts
        FROM ${alias}.incomplete i) g
      ANTI JOIN (SELECT m.series_id, m.slot_ts FROM (${stored(incomplete, first, end)}) m
          SEMI JOIN ${alias}.incomplete i
            ON i.series_id = m.series_id AND i.b = (epoch_ms(m.slot_ts) - ${first}) // ${block}) m
        ON m.series_id = g.series_id AND m.slot_ts = g.ts
      ORDER BY 1, 2`);
    await connection.run(`DROP TABLE ${alias}.incomplete`);
  }
  const P = parameters.length;
  const params = `(VALUES ${
    parameters.map((p, k) => `(${k}::UTINYINT, ${p.neutral})`).join(", ")
  }) p(param, neutral)`;
  const pick = parameters.map((p, k) => `WHEN ${k} THEN ${sources.valueOf(p)}`).join(" ");
  const flagged = sources.flaggedColumn ? ", coalesce(m.flagged, false) AS flagged" : "";
  const list = (values: readonly string[], type: string) =>
    `([${values.map(text).join(", ")}]::${t(type)}[])`;
  const local = localTime(first, end, job.timezone);
  const quality = (code: string) => `${text(code)}::${t("quality")}`;

  /** The long layout of a folder (every feeder and slot when `folder` is omitted). */
  const select = (folder: Folder = { path: [], where: "" }) => {
    const a = Math.max(first, folder.from ?? first);
    const b = Math.min(end, folder.to ?? end);
    const ords = folder.ords ? ` WHERE ord IN (${folder.ords.join(", ")})` : "";
    const series = `SELECT series_id FROM ${alias}.feeders${ords}`;
    return `SELECT make_timestamp(us) AS time_utc, make_timestamp(us + ${local}) AS time_local,
        ${list(sorted.map((f) => f.station_name), "station")}[ord + 1] AS station,
        ${list(sorted.map((f) => f.node_name), "node")}[ord + 1] AS node,
        ${list(sorted.map((f) => f.feeder_id), "feeder_id")}[ord + 1] AS feeder_id,
        ${list(sorted.map((f) => f.feeder_name), "feeder")}[ord + 1] AS feeder,
        ${list(PHASES, "phase")}[ph + 1] AS phase,
        ${list(parameters.map((p) => p.key), "parameter")}[param + 1] AS parameter, value,
        ${list(parameters.map((p) => p.unit), "unit")}[param + 1] AS unit,
        CASE WHEN value IS NULL THEN ${quality("MISSING")}
          ${flagged ? `WHEN flagged THEN ${quality("FLAGGED")} ` : ""}ELSE ${
      quality("OK")
    } END AS quality
      FROM (SELECT (${first} + (key // ${4 * P} % ${slots}) * ${step}) * 1000 AS us,
          (key // ${4 * P * slots})::INTEGER AS ord, (key // ${P} % 4)::INTEGER AS ph,
          (key % ${P})::INTEGER AS param, value${flagged ? ", flagged" : ""}
        FROM (SELECT ((f.ord::BIGINT * ${slots} + (epoch_ms(m.slot_ts) - ${first}) // ${step}) * 4
              + f.ph) * ${P} + p.param AS key,
            CASE p.param ${pick} END AS value${flagged}
          FROM (${stored(series, a, b)}
            UNION ALL BY NAME
            SELECT series_id, ts AS slot_ts FROM ${alias}.missing
            WHERE series_id IN (${series}) AND ts >= ${micros(a)} AND ts < ${micros(b)}) m
          JOIN ${alias}.feeders f ON f.series_id = m.series_id
          JOIN ${params} ON f.ph < 3 OR p.neutral)
        ORDER BY key)`;
  };

  /** The missing values (missing slots and stored NULLs) for the gap list (stage.ts). */
  const missing = () => {
    const nulls = parameters.map((p, k) =>
      `CASE WHEN m.${aggregate ? p.aggregate : p.raw} IS NULL THEN ${k} END`
    );
    return `SELECT f.ord, f.station, f.node, f.feeder_id, f.feeder, f.phase,
        ${list(parameters.map((p) => p.key), "parameter")}[p.param + 1] AS parameter,
        g.slot_ts AS time_utc
      FROM (SELECT series_id, ts AS slot_ts, NULL::INTEGER AS param FROM ${alias}.missing
        UNION ALL
        SELECT series_id, slot_ts, unnest(list_filter([${nulls.join(", ")}], x -> x IS NOT NULL))
        FROM (${stored(allSeries, first, end)}) m
        WHERE ${nulls.map((n) => `${n} IS NOT NULL`).join(" OR ")}) g
      JOIN ${alias}.feeders f ON f.series_id = g.series_id
      JOIN ${params} ON (f.ph < 3 OR p.neutral) AND (g.param IS NULL OR g.param = p.param)`;
  };
  return { select, missing };
}

/**
 * The offset of local time, in microseconds, as a SQL expression of `us` (UTC microseconds):
 * the zone's offsets over [from, to), transitions found hourly and refined to the second.
 */
export function localTime(from: number, to: number, timeZone: string): string {
  const offset = (t: number) => zoneOffset(t, timeZone) * 1000;
  const HOUR = 3_600_000;
  const cases: string[] = [];
  let current = offset(from);
  for (let t = from; t < to; t += HOUR) {
    const next = Math.min(t + HOUR, to);
    const o = offset(next);
    if (o === current) continue;
    // The first second of [t, next] at the new offset.
    let lo = t;
    let hi = next;
    while (hi - lo > 1000) {
      const mid = lo + Math.max(1000, Math.floor((hi - lo) / 2000) * 1000);
      if (offset(mid) === current) lo = mid;
      else hi = mid;
    }
    cases.push(`WHEN us < ${hi * 1000} THEN ${current}`);
    current = o;
  }
  return cases.length ? `(CASE ${cases.join(" ")} ELSE ${current} END)` : `${current}`;
}
