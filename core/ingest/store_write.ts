/**
 * The measurement store's DuckDB statements: a group's transaction (appenders for series,
 * events, I/O states and rows, with the journal positions it covers) and the lookups that tell
 * retries and backfills from new data.
 */
import { type DuckDBAppender, type DuckDBConnection, DuckDBTimestampValue } from "@duckdb/node-api";
import { appendRows } from "./chunk_writer.ts";
import type { JournalPosition } from "./journal.ts";
import { JOURNAL_FOLD, JOURNAL_RAW } from "./schema.ts";
import type { SeriesIndex } from "./series_index.ts";
import {
  type Accepted,
  acceptNew,
  type AppendResult,
  type NewSeries,
  type Prepared,
  type ValidBatch,
} from "./store_group.ts";
import { storedDeviceRecords } from "./store_pq.ts";
import type { EventRow } from "./validate_extras.ts";

const sqlText = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** What `prepareGroup` needs of the store. */
export interface GroupLookups {
  connection: DuckDBConnection;
  index: SeriesIndex;
  /** Whether a device record `series|slot` is held in memory, not yet written. */
  isHeldRecord(key: string): boolean;
  /** Writes every acknowledged group to DuckDB. */
  flush(): Promise<void>;
  /** Runs `fn` alone on the writer connection. */
  withWriter<T>(fn: () => Promise<T>): Promise<T>;
}

/**
 * Series ids for a group's rows (new series get the next ids), then what is new: rows above
 * their series' watermark, or below it and not stored (retries, backfills; pending groups are
 * written to DuckDB first, so that the lookup sees them), events and I/O states not stored.
 */
export async function prepareGroup(
  group: readonly { cellId: string; batch: ValidBatch }[],
  store: GroupLookups,
): Promise<{ accepted: Accepted[]; newSeries: NewSeries[]; results: AppendResult[] }> {
  const { connection: c, index } = store;
  const newSeries: NewSeries[] = [];
  const prepared = index.prepare(group, newSeries);
  try {
    // Every acknowledged group must be in DuckDB before it is searched for these rows.
    const lookup = prepared.some((p) => index.needsLookup(p));
    if (lookup) await store.flush();
    const search = async () => {
      await dropKnownExtras(c, prepared, index);
      if (!lookup) return { existing: new Set<string>(), devices: new Set<string>() };
      const candidates = prepared.flatMap((p) =>
        p.pq.flatMap((r, k) =>
          index.pqMayExist(p.pqIds[k]!, r.slot) ? [[p.pqIds[k]!, r.slot] as const] : []
        )
      );
      return {
        existing: await storedRows(c, prepared, index),
        devices: await storedDeviceRecords(c, candidates),
      };
    };
    // Without a lookup, only events and I/O states repeated within a batch are dropped: no
    // query, so no wait for the writer connection.
    const { existing, devices } = lookup ? await store.withWriter(search) : await search();
    const { accepted, results } = acceptNew(
      prepared,
      existing,
      (key) => devices.has(key) || store.isHeldRecord(key),
    );
    return { accepted, newSeries, results };
  } catch (error) {
    index.forget(newSeries);
    throw error;
  }
}

/**
 * One DuckDB transaction: new series, events, I/O states, PQ records, rows and the journal
 * positions: `end` for the rows, `foldFrom` from which a replay folds protocol v1 PQ values
 * again (the folds held in memory, with those of these rows).
 */
export async function writeGroup(
  c: DuckDBConnection,
  accepted: readonly Accepted[],
  newSeries: readonly NewSeries[],
  end: JournalPosition | null,
  foldFrom: JournalPosition | null = null,
): Promise<void> {
  await c.run("BEGIN TRANSACTION");
  try {
    if (newSeries.length) {
      const appender = await c.createAppender("series");
      for (const [, id, cellId, feeder, phase] of newSeries) {
        appender.appendInteger(id);
        appender.appendVarchar(cellId);
        appender.appendUTinyInt(feeder);
        appender.appendUTinyInt(phase);
        appender.endRow();
      }
      appender.closeSync();
    }
    if (accepted.some((a) => a.events.length)) {
      const appender = await c.createAppender("voltage_events");
      for (const a of accepted) for (const e of a.events) appendEvent(appender, a.cellId, e);
      appender.closeSync();
    }
    if (accepted.some((a) => a.io.length)) {
      const appender = await c.createAppender("io_states");
      for (const a of accepted) {
        for (const s of a.io) {
          appender.appendVarchar(a.cellId);
          appender.appendTimestamp(new DuckDBTimestampValue(BigInt(s.ts) * 1000n));
          appender.appendUTinyInt(s.module);
          appender.appendUTinyInt(s.channel);
          appender.appendVarchar(s.kind);
          appender.appendDouble(s.value);
          appender.endRow();
        }
      }
      appender.closeSync();
    }
    const ids = accepted.flatMap((a) => a.ids);
    if (ids.length) {
      const rows = accepted.flatMap((a) => a.rows);
      const appender = await c.createAppender("raw_measurements");
      appendRows(appender, ids, rows, rows.map((_, k) => k));
      appender.closeSync();
    }
    if (end) {
      const from = foldFrom ?? end;
      await c.run(
        `INSERT OR REPLACE INTO journal_position VALUES
           (${JOURNAL_RAW}, ${end.segment}, ${end.offset}),
           (${JOURNAL_FOLD}, ${from.segment}, ${from.offset})`,
      );
    }
    await c.run("COMMIT");
  } catch (error) {
    await c.run("ROLLBACK").catch(() => undefined);
    throw error;
  }
}

/** Keys `${series}|${ts}` already stored among rows at or below their series' watermark. */
export async function storedRows(
  connection: DuckDBConnection,
  prepared: readonly Prepared[],
  index: SeriesIndex,
): Promise<Set<string>> {
  const candidates: string[] = [];
  let [minTs, maxTs, minId, maxId] = [Infinity, -Infinity, Infinity, -Infinity];
  for (const { rows, ids } of prepared) {
    for (let k = 0; k < rows.length; k++) {
      const id = ids[k]!;
      const ts = rows[k]!.ts;
      const mark = index.watermark(id);
      if (mark === undefined || ts > mark) continue;
      candidates.push(`(${id}, ${ts})`);
      if (ts < minTs) minTs = ts;
      if (ts > maxTs) maxTs = ts;
      if (id < minId) minId = id;
      if (id > maxId) maxId = id;
    }
  }
  const found = new Set<string>();
  if (!candidates.length) return found;
  // Retries and backfills span a short time: scan that range (zone maps skip the rest) rather
  // than joining a list of every candidate key.
  const sql = maxTs - minTs <= 3_600_000
    ? `SELECT series_id, epoch_ms(ts) FROM raw_measurements
       WHERE ts BETWEEN make_timestamp(${minTs * 1000}) AND make_timestamp(${maxTs * 1000})
         AND series_id BETWEEN ${minId} AND ${maxId}`
    : `SELECT r.series_id, epoch_ms(r.ts) FROM raw_measurements r
       JOIN (VALUES ${candidates.join(",")}) AS c(series_id, ms)
         ON r.series_id = c.series_id AND r.ts = make_timestamp(c.ms * 1000)`;
  const result = await connection.runAndReadAll(sql);
  for (const [id, ms] of result.getRows() as [number, bigint | number][]) {
    found.add(`${id}|${Number(ms)}`);
  }
  return found;
}

/**
 * Removes from the batches the events and I/O states already stored (retries) or repeated in
 * the batch (the first one stays), so that they can be appended directly to their keyed
 * tables. Events are looked up by id; I/O states only at or below the cell's I/O watermark.
 */
export async function dropKnownExtras(
  c: DuckDBConnection,
  prepared: readonly Prepared[],
  index: SeriesIndex,
): Promise<void> {
  const eventKeys: string[] = [];
  const ioKeys: string[] = [];
  for (const p of prepared) {
    const cell = sqlText(p.cellId);
    const ids = new Set<string>();
    p.events = p.events.filter((e) => !ids.has(e.id) && ids.add(e.id));
    for (const e of p.events) eventKeys.push(`(${cell}, ${sqlText(e.id)})`);
    const keys = new Set<string>();
    p.io = p.io.filter((s) => {
      const key = `${s.ts}|${s.module}|${s.channel}`;
      return !keys.has(key) && keys.add(key);
    });
    const mark = index.ioMark(p.cellId);
    for (const s of p.io) {
      if (s.ts <= mark) ioKeys.push(`(${cell}, ${s.ts}, ${s.module}, ${s.channel})`);
    }
  }
  const known = new Set<string>();
  if (eventKeys.length) {
    const rows = (await c.runAndReadAll(
      `SELECT e.cell_id, e.event_id FROM voltage_events e
         JOIN (VALUES ${eventKeys.join(",")}) AS k(cell_id, event_id)
           ON e.cell_id = k.cell_id AND e.event_id = k.event_id`,
    )).getRows() as [string, string][];
    for (const [cell, id] of rows) known.add(`${cell}|e|${id}`);
  }
  if (ioKeys.length) {
    const rows = (await c.runAndReadAll(
      `SELECT s.cell_id, epoch_ms(s.ts), s.module, s.channel FROM io_states s
         JOIN (VALUES ${ioKeys.join(",")}) AS k(cell_id, ms, module, channel)
           ON s.cell_id = k.cell_id AND s.ts = make_timestamp(k.ms * 1000)
             AND s.module = k.module AND s.channel = k.channel`,
    )).getRows() as [string, bigint, number, number][];
    for (const [cell, ms, module, channel] of rows) {
      known.add(`${cell}|io|${Number(ms)}|${module}|${channel}`);
    }
  }
  if (!known.size) return;
  for (const p of prepared) {
    p.events = p.events.filter((e) => !known.has(`${p.cellId}|e|${e.id}`));
    p.io = p.io.filter((s) => !known.has(`${p.cellId}|io|${s.ts}|${s.module}|${s.channel}`));
  }
}

function appendEvent(appender: DuckDBAppender, cellId: string, e: EventRow): void {
  appender.appendVarchar(cellId);
  appender.appendVarchar(e.id);
  appender.appendVarchar(e.type);
  appender.appendTimestamp(new DuckDBTimestampValue(BigInt(e.start) * 1000n));
  appender.appendTimestamp(new DuckDBTimestampValue(BigInt(e.end) * 1000n));
  appendTextOrNull(appender, e.startPhase);
  appendTextOrNull(appender, e.endPhase);
  appender.appendFloat(e.extremePct);
  appendFloatOrNull(appender, e.deltaUPct ?? NaN);
  appendTextOrNull(appender, e.trace);
  appender.appendVarchar(e.kind);
  appendTextOrNull(appender, e.tableCell);
  appender.endRow();
}

function appendTextOrNull(appender: DuckDBAppender, value: string | null): void {
  if (value === null) appender.appendNull();
  else appender.appendVarchar(value);
}

function appendFloatOrNull(appender: DuckDBAppender, value: number): void {
  if (Number.isNaN(value)) appender.appendNull();
  else appender.appendFloat(value);
}
