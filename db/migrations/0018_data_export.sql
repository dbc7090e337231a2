-- Data export (dem): one row per export of a user (docs/export.md). The row is the job: QUEUED
-- rows wait for a free slot of their customer, IN_PROGRESS rows are being written (a process
-- that died leaves them so: the next start queues them again, at most three attempts).
CREATE SCHEMA IF NOT EXISTS export;

CREATE TABLE export.exports (
  key text PRIMARY KEY,
  customer_key text NOT NULL,
  user_id text NOT NULL,
  name text NOT NULL,
  file_name text NOT NULL,
  period_from timestamptz NOT NULL,
  period_to timestamptz NOT NULL,
  feeders jsonb NOT NULL,
  parameters jsonb NOT NULL,
  interval text NOT NULL CHECK (interval IN ('20s', '10min', '1h', '1d')),
  format text NOT NULL CHECK (format IN ('csv', 'parquet', 'duckdb')),
  directory_structure text NOT NULL
    CHECK (directory_structure IN ('flat', 'station', 'node', 'feeder', 'month')),
  status text NOT NULL CHECK (status IN ('QUEUED', 'IN_PROGRESS', 'FINISHED', 'FAILED',
    'CANCELLED', 'DELETED', 'DOWNLOADED')),
  cancel_requested boolean NOT NULL DEFAULT false,
  attempts smallint NOT NULL DEFAULT 0,
  rows_done bigint NOT NULL DEFAULT 0,
  rows_total bigint NOT NULL DEFAULT 0,
  percent real NOT NULL DEFAULT 0,
  stage text,
  estimated_bytes bigint NOT NULL,
  size_bytes bigint,
  error_key text,
  error_params jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  expires_at timestamptz,
  downloaded_at timestamptz
);
CREATE INDEX exports_user_idx ON export.exports (customer_key, user_id, created_at DESC);
CREATE INDEX exports_status_idx ON export.exports (status, created_at);
