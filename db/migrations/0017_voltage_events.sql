-- Power-quality events (pqe): the recordings of voltage events that users ask the cells for
-- (docs/cell-configuration.md, "Commands"). The events themselves live in the time-series
-- store (DuckDB voltage_events); a row here is one request and, once uploaded, the file.
CREATE SCHEMA IF NOT EXISTS voltage_events;

CREATE TABLE voltage_events.recordings (
  -- The id the cell sees in its command and uploads to.
  id text PRIMARY KEY,
  customer_key text NOT NULL,
  cell_id text NOT NULL,
  event_id text NOT NULL,
  status text NOT NULL CHECK (status IN ('REQUESTED', 'DOWNLOADING', 'DOWNLOADED', 'FAILED')),
  -- 515, 516, 518 or 521 when FAILED.
  code integer,
  requested_by text NOT NULL,
  requested_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  -- The download fails with 518 when it has not ended by then (persisted: survives a restart).
  deadline_at timestamptz NOT NULL,
  -- The uploaded recording (gridwatch-rms/1 JSON) and its SHA-256, once DOWNLOADED.
  payload text,
  sha256 text,
  size_bytes integer,
  UNIQUE (cell_id, event_id)
);
CREATE INDEX recordings_customer_time_idx
  ON voltage_events.recordings (customer_key, updated_at DESC);
CREATE INDEX recordings_open_idx
  ON voltage_events.recordings (cell_id) WHERE status IN ('REQUESTED', 'DOWNLOADING');
