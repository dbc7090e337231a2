/**
 * Hourly and daily rollups of the 10-minute PQ records (`pq_1h`, `pq_1d`): the number of
 * records, the mean unbalance and the highest Pst and Plt, for visual statistics over long
 * periods. Both levels are computed from `pq_10min` for the periods and series whose records
 * changed (a device's record, a fold of protocol v1 values), on the aggregator's connection.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { appendColumns } from "./chunk_writer.ts";
import type { PqChanges } from "./store_pq.ts";

const LEVELS = [
  { table: "pq_1h", ms: 3_600_000, interval: "1 HOUR" },
  { table: "pq_1d", ms: 86_400_000, interval: "1 DAY" },
] as const;
/** Above this many changed series, the periods are recomputed for every series. */
const MAX_LISTED_SERIES = 50_000;

function rollupSql(level: (typeof LEVELS)[number], starts: readonly number[], where: string) {
  const ranges = starts.map((s) =>
    `(slot >= make_timestamp(${s * 1000}) AND slot < make_timestamp(${(s + level.ms) * 1000}))`
  ).join(" OR ");
  return `INSERT INTO ${level.table}
    SELECT series_id, time_bucket(INTERVAL ${level.interval}, slot) AS bucket, count(*),
      avg(unbalance), max(pst), max(plt)
    FROM pq_10min WHERE (${ranges}) AND (${where})
    GROUP BY series_id, bucket`;
}

/** Keeps `pq_1h` and `pq_1d` up to date with `pq_10min`. */
export class PqRollups {
  /** Changed series by hour start; null: every series of the hour. */
  readonly #hours = new Map<number, Set<number> | null>();

  constructor(private readonly connection: DuckDBConnection) {}

  /** Notes changed records. */
  mark(changes: PqChanges): void {
    for (const [slot, ids] of changes) {
      const hour = slot - (slot % LEVELS[0].ms);
      const known = this.#hours.get(hour);
      if (known === null) continue;
      const set = known ?? new Set<number>();
      for (const id of ids) set.add(id);
      this.#hours.set(hour, set.size > MAX_LISTED_SERIES ? null : set);
    }
  }

  /**
   * After a restart: marks every hour since `since` (epoch ms) whose rollup disagrees with its
   * records (records stored just before the stop).
   */
  async recover(since: number): Promise<void> {
    const from = `make_timestamp(${since * 1000})`;
    const rows = (await this.connection.runAndReadAll(
      `WITH t AS (
         SELECT series_id, time_bucket(INTERVAL 1 HOUR, slot) AS hour, count(*) AS n,
           avg(unbalance)::FLOAT AS unbalance, max(pst) AS pst, max(plt) AS plt
         FROM pq_10min WHERE slot >= ${from} GROUP BY ALL)
       SELECT DISTINCT epoch_ms(t.hour) FROM t
       LEFT JOIN pq_1h a ON a.series_id = t.series_id AND a.slot = t.hour
       WHERE a.n IS DISTINCT FROM t.n OR a.unbalance IS DISTINCT FROM t.unbalance
         OR a.pst IS DISTINCT FROM t.pst OR a.plt IS DISTINCT FROM t.plt`,
    )).getRows() as [bigint | number][];
    for (const [ms] of rows) this.#hours.set(Number(ms), null);
  }

  /** Rewrites the rollups of the marked hours and of their days. */
  async flush(): Promise<void> {
    if (!this.#hours.size) return;
    const hours = new Map(this.#hours);
    this.#hours.clear();
    try {
      const all = [...hours].filter(([, ids]) => ids === null).map(([hour]) => hour);
      const listed = new Set<number>();
      for (const ids of hours.values()) for (const id of ids ?? []) listed.add(id);
      const some = [...hours].filter(([, ids]) => ids !== null).map(([hour]) => hour);
      if (all.length) await this.#rewrite(all, "TRUE");
      if (some.length && listed.size) {
        await this.#stage(listed);
        await this.#rewrite(some, "series_id IN (SELECT series_id FROM pq_changed)");
      }
    } catch (error) {
      // Not written: tried again at the next flush, for every series of those hours.
      for (const hour of hours.keys()) this.#hours.set(hour, null);
      throw error;
    }
  }

  async #stage(ids: Set<number>): Promise<void> {
    const c = this.connection;
    await c.run("CREATE TEMP TABLE IF NOT EXISTS pq_changed (series_id INTEGER)");
    await c.run("DELETE FROM pq_changed");
    const appender = await c.createAppender("pq_changed", "main", "temp");
    const data = Int32Array.from(ids);
    appendColumns(appender, [{ type: "integer", data }], data.length);
    appender.closeSync();
  }

  async #rewrite(hours: readonly number[], where: string): Promise<void> {
    for (const level of LEVELS) {
      const starts = [...new Set(hours.map((h) => h - (h % level.ms)))];
      for (let k = 0; k < starts.length; k += 48) {
        const chunk = starts.slice(k, k + 48);
        const periods = chunk.map((s) => `make_timestamp(${s * 1000})`).join(",");
        await this.#transaction([
          `DELETE FROM ${level.table} WHERE slot IN (${periods}) AND (${where})`,
          rollupSql(level, chunk, where),
        ]);
      }
    }
  }

  async #transaction(statements: readonly string[]): Promise<void> {
    const c = this.connection;
    await c.run("BEGIN TRANSACTION");
    try {
      for (const statement of statements) await c.run(statement);
      await c.run("COMMIT");
    } catch (error) {
      await c.run("ROLLBACK").catch(() => undefined);
      throw error;
    }
  }
}
