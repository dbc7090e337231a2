/**
 * Reads the slots of some series from one level of the streaming core with one query per table
 * (the measurements' level, and the PQ records' for unbalance, Pst and Plt), column by column
 * from DuckDB's vectors, into arrays laid on the answer's time grid (NaN where a slot has no
 * row: gaps stay gaps). A 10-minute PQ value read for the 20-s level fills its 30 slots.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { readVector } from "../vectors.ts";
import { STATISTICS_PARAMETERS } from "./parameters.ts";
import { pqStepMs, type Resolution, RESOLUTIONS, type SlotGrid } from "./period.ts";

/** What one query reads: the level, the slots, the series and the value columns. */
export interface SlotQuery {
  resolution: Resolution;
  grid: SlotGrid;
  seriesIds: readonly number[];
  columns: readonly string[];
}

/** Columns a query may name: those of the parameter table (never text from a request). */
const KNOWN_COLUMNS = new Set(
  STATISTICS_PARAMETERS.flatMap((p) => [p.raw, p.aggregate, p.min, p.max])
    .filter((c): c is string => c !== undefined),
);
/** Columns of the PQ tables (`pq_10min`, `pq_1h`, `pq_1d`). */
const PQ_COLUMNS = new Set(
  STATISTICS_PARAMETERS.filter((p) => p.pq).flatMap((p) => [p.raw, p.aggregate]),
);

/**
 * The SQL of a {@link SlotQuery}: series id, slot start (epoch ms) and the value columns, from
 * the level's measurement table or, with `pq`, its PQ table.
 */
export function slotSql(query: SlotQuery, pq = false): string {
  const level = RESOLUTIONS[query.resolution];
  const [table, time] = pq ? [level.pqTable, "slot"] : [level.table, level.time];
  for (const column of query.columns) {
    if (!KNOWN_COLUMNS.has(column)) throw new Error(`Unknown statistics column ${column}`);
  }
  const ids = query.seriesIds.filter((id) => Number.isInteger(id));
  if (!ids.length) throw new Error("A statistics query needs at least one series");
  const { start, stepMs, count } = query.grid;
  const end = start + count * stepMs;
  // A 10-minute record starting before the grid's first 20-s slot covers it too.
  const first = pq ? start - (start % pqStepMs(query.resolution)) : start;
  // A join with the few ids, not `series_id IN (...)`: the rows of a slot hold every series, so
  // the whole period is scanned, and a hash probe per row costs less than one comparison per id
  // (a year of daily rows of 24,000 series: about 3 times faster).
  return `SELECT a.series_id, epoch_ms(a.${time})::DOUBLE,
      ${query.columns.map((c) => `a.${c}`).join(", ")}
    FROM ${table} a JOIN (SELECT unnest([${ids.join(",")}]) AS id) v ON a.series_id = v.id
    WHERE a.${time} >= make_timestamp(${first * 1000})
      AND a.${time} < make_timestamp(${end * 1000})`;
}

/**
 * The values of every series of `query`: per series id, one array per column (in the order of
 * `query.columns`), `grid.count` slots long, NaN where the slot has no value. Series without
 * any row get NaN arrays too.
 */
export async function loadSlots(
  connection: DuckDBConnection,
  query: SlotQuery,
): Promise<Map<number, Float64Array[]>> {
  const { stepMs, count } = query.grid;
  const out = new Map<number, Float64Array[]>();
  for (const id of query.seriesIds) {
    if (!out.has(id)) {
      out.set(id, query.columns.map(() => new Float64Array(count).fill(NaN)));
    }
  }
  if (!out.size || !count) return out;
  const at = (columns: readonly string[]) => columns.map((c) => query.columns.indexOf(c));
  const pq = query.columns.filter((c) => PQ_COLUMNS.has(c));
  const measured = query.columns.filter((c) => !PQ_COLUMNS.has(c));
  if (measured.length) {
    const sub = { ...query, columns: measured };
    await read(connection, slotSql(sub), sub, at(measured), out, stepMs);
  }
  if (pq.length) {
    const sub = { ...query, columns: pq };
    await read(connection, slotSql(sub, true), sub, at(pq), out, pqStepMs(query.resolution));
  }
  return out;
}

/**
 * Lays the rows of `sql` on the grid: column k of the query goes to array `targets[k]` of its
 * series; a row of `rowMs` covers the grid slots from its start up to the next row's.
 */
async function read(
  connection: DuckDBConnection,
  sql: string,
  query: SlotQuery,
  targets: readonly number[],
  out: Map<number, Float64Array[]>,
  rowMs: number,
): Promise<void> {
  const { start, stepMs, count } = query.grid;
  const span = Math.max(1, Math.round(rowMs / stepMs));
  const result = await connection.run(sql);
  for (let c = 0; c < result.chunkCount; c++) {
    const chunk = result.getChunk(c);
    const rows = chunk.rowCount;
    const ids = readVector(chunk, 0, rows, Int32Array).values;
    const times = readVector(chunk, 1, rows, Float64Array).values;
    // Where each row goes, computed once: its series' arrays and first slot (-span: outside).
    const series = new Array<Float64Array[] | undefined>(rows);
    const slots = new Int32Array(rows);
    for (let r = 0; r < rows; r++) {
      const slot = Math.floor((times[r]! - start) / stepMs);
      slots[r] = slot > -span && slot < count ? slot : -span;
      series[r] = out.get(ids[r]!);
    }
    query.columns.forEach((_, k) => {
      const { values, valid } = readVector(chunk, 2 + k, rows, Float32Array);
      const target = targets[k]!;
      for (let r = 0; r < rows; r++) {
        const slot = slots[r]!;
        if (slot === -span || !valid(r)) continue;
        const array = series[r]![target]!;
        const to = Math.min(count, slot + span);
        for (let s = Math.max(0, slot); s < to; s++) array[s] = values[r]!;
      }
    });
  }
}
