/**
 * DuckDB tables of the streaming core. Columns are FLOAT (device resolution is well below 1e-6).
 *
 * Two families: what a cell measures every 20 s (the narrow hot row `raw_measurements`, its
 * 10-minute aggregates `agg_10min` and their hourly and daily rollups), and the 10-minute
 * power-quality record (`pq_10min`: harmonics 2-25, Pst, Plt, unbalance per feeder, phase and
 * slot, as a protocol v2 cell sends it or as the platform folds it from protocol v1 20-s values,
 * core/ingest/pq_fold.ts) with the rollups of the quantities visual statistics charts.
 */
import type { DuckDBConnection } from "@duckdb/node-api";

/** Harmonic orders of a PQ record (2..25). */
export const HARMONIC_ORDERS = Array.from({ length: 24 }, (_, k) => k + 2);
/**
 * Counts of the PQ rollups (`pq_1h`, `pq_1d`; core/ingest/pq_rollup.ts): records of flagged
 * slots, then over the other records per order `h{order}_n` values present and `h{order}_over`
 * values above the EN 50160 limit, and the same of unbalance (added last, in a later release:
 * a row with `unbalance_n` has every count).
 */
export const COUNT_COLUMNS = [
  "n_flagged",
  ...HARMONIC_ORDERS.flatMap((o) => [`h${o}_n`, `h${o}_over`]),
  "unbalance_n",
  "unbalance_over",
];
/** The count column a rollup row of an earlier release lacks (NULL: the row has no counts). */
export const NEWEST_COUNT = "unbalance_n";
const harmonicColumns = (type: string) => HARMONIC_ORDERS.map((h) => `h${h} ${type}`).join(", ");

/** Float columns of `raw_measurements` after series_id and ts, in table order. */
export const RAW_FLOAT_COLUMNS = ["u", "i", "p", "q", "pf", "thd_u", "thd_i", "f"] as const;

/** Where a `pq_10min` row comes from. */
export const PQ_ORIGIN = {
  /** The cell's own 10-minute record (protocol v2). */
  device: 1,
  /** Folded by the platform from protocol v1 20-s values. */
  folded: 2,
} as const;

/**
 * The tables of one row per series and slot. They have no primary key: DuckDB keeps such a key
 * as an in-memory index beside the data and checks every insert against it, so each 10-minute
 * close got slower as the tables grew (at 5,000 cells one slot's insert took 190 ms on an empty
 * table and over 1 s after a day) until it failed for want of memory after 2.3 days. Each
 * writer keeps its keys unique in the transaction that writes them (docs/architecture.md,
 * "Slot tables without keys").
 */
export const SLOT_TABLES = ["agg_10min", "agg_1h", "agg_1d", "pq_10min", "pq_1h", "pq_1d"] as const;

/**
 * Statements that replace the rows of `table` with those `select` gives, key by key (series and
 * slot; the slot tables have no primary key: SLOT_TABLES), through a temporary table.
 */
export function replaceRows(table: string, temp: string, select: string): string[] {
  return [
    `CREATE OR REPLACE TEMP TABLE ${temp} AS ${select}`,
    `DELETE FROM ${table} USING temp.main.${temp} n
      WHERE ${table}.series_id = n.series_id AND ${table}.slot = n.slot`,
    `INSERT INTO ${table} SELECT * FROM temp.main.${temp}`,
    `DROP TABLE temp.main.${temp}`,
  ];
}

/** An aggregate table: one row per series and slot (10 minutes, an hour or a day). */
function aggregateTable(name: string): string {
  return `CREATE TABLE IF NOT EXISTS ${name} (
    series_id INTEGER NOT NULL, slot TIMESTAMP NOT NULL, n USMALLINT NOT NULL,
    u_rms FLOAT, u_min FLOAT, u_max FLOAT, i_rms FLOAT, i_min FLOAT, i_max FLOAT,
    p_mean FLOAT, q_mean FLOAT, pf_mean FLOAT, thd_u FLOAT, thd_i FLOAT,
    f_mean FLOAT, f_min FLOAT, f_max FLOAT, flagged BOOLEAN NOT NULL)`;
}

/**
 * A rollup of the PQ records: `n` records of the period, the mean unbalance, the highest Pst
 * and Plt (what visual statistics charts; harmonics are read per 10 minutes only).
 */
function pqRollupTable(name: string): string {
  return `CREATE TABLE IF NOT EXISTS ${name} (
    series_id INTEGER NOT NULL, slot TIMESTAMP NOT NULL, n USMALLINT NOT NULL,
    unbalance FLOAT, pst FLOAT, plt FLOAT)`;
}

/** Statements that create the tables when absent (idempotent, run at every start). */
export const DDL = [
  `CREATE TABLE IF NOT EXISTS series (
    series_id INTEGER PRIMARY KEY, cell_id VARCHAR NOT NULL, feeder UTINYINT NOT NULL, phase UTINYINT NOT NULL,
    UNIQUE (cell_id, feeder, phase))`,
  `CREATE TABLE IF NOT EXISTS raw_measurements (
    series_id INTEGER NOT NULL, ts TIMESTAMP NOT NULL,
    u FLOAT, i FLOAT, p FLOAT, q FLOAT, pf FLOAT, thd_u FLOAT, thd_i FLOAT, f FLOAT)`,
  aggregateTable("agg_10min"),
  // Hourly and daily rollups of the 10-minute aggregates, for long ranges (a year of a feeder).
  aggregateTable("agg_1h"),
  aggregateTable("agg_1d"),
  // The 10-minute PQ record. `windows` has bit k set for the 20-s window k of the slot folded
  // into a folded record (0 for a device's record), so that a journal replay folds no value
  // twice; `n_h` and `n_unbalance` count the values behind the RMS and the mean, so that a
  // late 20-s value can be merged into a stored record.
  `CREATE TABLE IF NOT EXISTS pq_10min (
    series_id INTEGER NOT NULL, slot TIMESTAMP NOT NULL, origin UTINYINT NOT NULL,
    windows UINTEGER NOT NULL, n_h USMALLINT NOT NULL, n_unbalance USMALLINT NOT NULL,
    unbalance FLOAT, pst FLOAT, plt FLOAT, ${harmonicColumns("FLOAT")})`,
  pqRollupTable("pq_1h"),
  pqRollupTable("pq_1d"),
  // Added after the first release: the PQ rollups count the records of flagged slots, and each
  // harmonic order's and unbalance's values and those above their EN 50160 limits
  // (core/ingest/pq_rollup.ts).
  ...["pq_1h", "pq_1d"].flatMap((table) =>
    COUNT_COLUMNS.map((column) =>
      `ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS ${column} USMALLINT`
    )
  ),
  `CREATE TABLE IF NOT EXISTS voltage_events (
    cell_id VARCHAR NOT NULL, event_id VARCHAR NOT NULL, type VARCHAR NOT NULL,
    start_ts TIMESTAMP NOT NULL, end_ts TIMESTAMP NOT NULL, start_phase VARCHAR, end_phase VARCHAR,
    extreme_pct FLOAT, delta_u_pct FLOAT, rms_trace VARCHAR,
    PRIMARY KEY (cell_id, event_id))`,
  `CREATE TABLE IF NOT EXISTS io_states (
    cell_id VARCHAR NOT NULL, ts TIMESTAMP NOT NULL, module UTINYINT NOT NULL, channel UTINYINT NOT NULL,
    kind VARCHAR NOT NULL, value DOUBLE NOT NULL,
    PRIMARY KEY (cell_id, ts, module, channel))`,
  // Added after the first release: existing files get the columns, new ones too (same order).
  `ALTER TABLE voltage_events ADD COLUMN IF NOT EXISTS kind VARCHAR`,
  `ALTER TABLE voltage_events ADD COLUMN IF NOT EXISTS table_cell VARCHAR`,
  // How far the ingest journal is in DuckDB (core/ingest/journal.ts), written in the transaction
  // of the rows it covers: id 1 the measurements (JOURNAL_RAW), id 2 the PQ values folded from
  // protocol v1 rows (JOURNAL_FOLD: the journal is replayed from there to fold them again).
  `CREATE TABLE IF NOT EXISTS journal_position (
    id INTEGER PRIMARY KEY, segment BIGINT NOT NULL, "offset" BIGINT NOT NULL)`,
  // Staging tables of earlier releases (events and I/O states are now appended directly).
  `DROP TABLE IF EXISTS voltage_events_stage`,
  `DROP TABLE IF EXISTS io_states_stage`,
];

/** `journal_position` ids. */
export const JOURNAL_RAW = 1;
export const JOURNAL_FOLD = 2;

/** Columns of the wide layout of earlier releases that moved to the PQ record. */
const OLD_PQ_COLUMNS = ["unbalance", "pst", "plt", ...HARMONIC_ORDERS.map((h) => `h${h}`)];
const OLD_AGG_PQ_COLUMNS = ["unbalance", "pst_max", "plt", ...HARMONIC_ORDERS.map((h) => `h${h}`)];

const window20s = (ts: string) => `(1::UINTEGER << ((epoch_ms(${ts}) % 600000) // 20000)::INTEGER)`;

/**
 * Creates the tables, moves a file of an earlier release to this layout (`moveWideLayout`) and
 * drops the primary keys of earlier releases' slot tables (`dropSlotKeys`). Returns whether the
 * layout moved.
 */
export async function migrate(connection: DuckDBConnection): Promise<boolean> {
  for (const statement of DDL) await connection.run(statement);
  const moved = await moveWideLayout(connection);
  await dropSlotKeys(connection);
  return moved;
}

/**
 * Rebuilds the slot tables of an earlier release without their primary key (`SLOT_TABLES`): a
 * copy with the same columns, types and NOT NULLs, in one transaction per table. Once per file;
 * the table needs its size again on disk meanwhile.
 */
export async function dropSlotKeys(connection: DuckDBConnection): Promise<string[]> {
  const keyed = ((await connection.runAndReadAll(
    `SELECT DISTINCT table_name FROM duckdb_constraints()
     WHERE constraint_type = 'PRIMARY KEY' AND schema_name = 'main'
       AND table_name IN (${SLOT_TABLES.map((t) => `'${t}'`).join(", ")})`,
  )).getRows() as [string][]).map(([table]) => table);
  for (const table of keyed) {
    const columns = (await connection.runAndReadAll(
      `SELECT column_name, data_type, is_nullable FROM information_schema.columns
       WHERE table_schema = 'main' AND table_name = '${table}' ORDER BY ordinal_position`,
    )).getRows() as [string, string, string][];
    const definition = columns.map(([name, type, nullable]) =>
      `"${name}" ${type}${nullable === "NO" ? " NOT NULL" : ""}`
    ).join(", ");
    await inTransaction(connection, [
      `CREATE TABLE ${table}__keyless (${definition})`,
      `INSERT INTO ${table}__keyless SELECT * FROM ${table}`,
      `DROP TABLE ${table}`,
      `ALTER TABLE ${table}__keyless RENAME TO ${table}`,
    ]);
  }
  return keyed;
}

/** Runs `statements` in one transaction: a replacement is never half-visible. */
export async function inTransaction(
  connection: DuckDBConnection,
  statements: readonly string[],
): Promise<void> {
  await connection.run("BEGIN TRANSACTION");
  try {
    for (const statement of statements) await connection.run(statement);
    await connection.run("COMMIT");
  } catch (error) {
    await connection.run("ROLLBACK").catch(() => undefined);
    throw error;
  }
}

/**
 * Moves a file of an earlier release (37-column raw rows, PQ columns in the aggregates) to this
 * layout in one transaction: the PQ values of the stored 20-s rows are folded into `pq_10min`
 * (exactly as the platform folds protocol v1 values), the PQ columns of older 10-minute
 * aggregates (raw rows past their lifetime) are copied, the hourly and daily PQ rollups copied
 * from the aggregates, and the moved columns dropped. Returns whether it ran.
 */
async function moveWideLayout(connection: DuckDBConnection): Promise<boolean> {
  const columns = async (table: string) =>
    new Set(
      ((await connection.runAndReadAll(
        `SELECT column_name FROM information_schema.columns WHERE table_name = '${table}'`,
      )).getRows() as [string][]).map(([name]) => name),
    );
  const raw = await columns("raw_measurements");
  const agg = await columns("agg_10min");
  if (!raw.has("h2") && !agg.has("h2")) return false;
  const rms = (c: string) => `sqrt(avg(${c} * ${c}))`;
  const statements: string[] = [];
  if (raw.has("h2")) {
    statements.push(`INSERT INTO pq_10min
      SELECT series_id, time_bucket(INTERVAL 10 MINUTE, ts) AS slot, ${PQ_ORIGIN.folded},
        bit_or(${window20s("ts")}), count(h2), count(unbalance), avg(unbalance), max(pst),
        max(plt), ${HARMONIC_ORDERS.map((h) => rms(`h${h}`)).join(", ")}
      FROM raw_measurements
      WHERE unbalance IS NOT NULL OR pst IS NOT NULL OR plt IS NOT NULL OR h2 IS NOT NULL
      GROUP BY series_id, slot`);
  }
  if (agg.has("h2")) {
    const any = OLD_AGG_PQ_COLUMNS.map((c) => `a.${c} IS NOT NULL`).join(" OR ");
    statements.push(`INSERT INTO pq_10min
      SELECT a.series_id, a.slot, ${PQ_ORIGIN.folded}, 0,
        CASE WHEN a.h2 IS NULL THEN 0 ELSE a.n END, CASE WHEN a.unbalance IS NULL THEN 0 ELSE a.n END,
        a.unbalance, a.pst_max, a.plt, ${HARMONIC_ORDERS.map((h) => `a.h${h}`).join(", ")}
      FROM agg_10min a ANTI JOIN pq_10min p ON p.series_id = a.series_id AND p.slot = a.slot
      WHERE ${any}`);
    for (const [to, from] of [["pq_1h", "agg_1h"], ["pq_1d", "agg_1d"]]) {
      statements.push(`INSERT INTO ${to} (series_id, slot, n, unbalance, pst, plt)
        SELECT series_id, slot, greatest(1, round(n / 30))::USMALLINT, unbalance, pst_max, plt
        FROM ${from} WHERE unbalance IS NOT NULL OR pst_max IS NOT NULL OR plt IS NOT NULL`);
    }
  }
  const drop = (table: string, names: readonly string[], present: Set<string>) => {
    for (const name of names) {
      if (present.has(name)) statements.push(`ALTER TABLE ${table} DROP COLUMN ${name}`);
    }
  };
  drop("raw_measurements", OLD_PQ_COLUMNS, raw);
  for (const table of ["agg_10min", "agg_1h", "agg_1d"]) {
    drop(table, OLD_AGG_PQ_COLUMNS, await columns(table));
  }
  await inTransaction(connection, statements);
  return true;
}

/**
 * Drops a temporary staging table after use. Not `DELETE FROM`: DuckDB keeps a temporary table's
 * deleted rows in memory (240,000 rows of agg_10min staged and deleted 15 times held 306 MB;
 * dropped or replaced, 26 MB). Each staging starts with `CREATE OR REPLACE TEMP TABLE` (a
 * reopened instance has lost them, and a failed write may have left one behind).
 */
export async function dropTemp(connection: DuckDBConnection, table: string): Promise<void> {
  await connection.run(`DROP TABLE IF EXISTS temp.main.${table}`);
}
