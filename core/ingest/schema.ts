/** DuckDB tables of the streaming core. Columns are FLOAT (device resolution is well below 1e-6). */

/** Harmonic orders stored per voltage record (2..25). */
export const HARMONIC_ORDERS = Array.from({ length: 24 }, (_, k) => k + 2);
const harmonicColumns = (type: string) => HARMONIC_ORDERS.map((h) => `h${h} ${type}`).join(", ");

/** An aggregate table: one row per series and slot (10 minutes, an hour or a day). */
function aggregateTable(name: string): string {
  return `CREATE TABLE IF NOT EXISTS ${name} (
    series_id INTEGER NOT NULL, slot TIMESTAMP NOT NULL, n USMALLINT NOT NULL,
    u_rms FLOAT, u_min FLOAT, u_max FLOAT, i_rms FLOAT, i_min FLOAT, i_max FLOAT,
    p_mean FLOAT, q_mean FLOAT, pf_mean FLOAT, thd_u FLOAT, thd_i FLOAT,
    f_mean FLOAT, f_min FLOAT, f_max FLOAT, unbalance FLOAT, pst_max FLOAT, plt FLOAT,
    ${harmonicColumns("FLOAT")}, flagged BOOLEAN NOT NULL,
    PRIMARY KEY (series_id, slot))`;
}

/** Statements that create the tables when absent (idempotent, run at every start). */
export const DDL = [
  `CREATE TABLE IF NOT EXISTS series (
    series_id INTEGER PRIMARY KEY, cell_id VARCHAR NOT NULL, feeder UTINYINT NOT NULL, phase UTINYINT NOT NULL,
    UNIQUE (cell_id, feeder, phase))`,
  `CREATE TABLE IF NOT EXISTS raw_measurements (
    series_id INTEGER NOT NULL, ts TIMESTAMP NOT NULL,
    u FLOAT, i FLOAT, p FLOAT, q FLOAT, pf FLOAT, thd_u FLOAT, thd_i FLOAT, f FLOAT, unbalance FLOAT,
    pst FLOAT, plt FLOAT, ${harmonicColumns("FLOAT")})`,
  aggregateTable("agg_10min"),
  // Hourly and daily rollups of the 10-minute aggregates, for long ranges (a year of a feeder).
  aggregateTable("agg_1h"),
  aggregateTable("agg_1d"),
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
  // How far the ingest journal is in DuckDB (core/ingest/journal.ts): one row, written in the
  // transaction of the rows it covers.
  `CREATE TABLE IF NOT EXISTS journal_position (
    id INTEGER PRIMARY KEY, segment BIGINT NOT NULL, "offset" BIGINT NOT NULL)`,
  // Staging tables of earlier releases (events and I/O states are now appended directly).
  `DROP TABLE IF EXISTS voltage_events_stage`,
  `DROP TABLE IF EXISTS io_states_stage`,
];
