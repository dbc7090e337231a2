-- Data export, second part (docs/export.md): the wide layout, scheduled exports and the
-- persisted key of the signed download links.
ALTER TABLE export.exports ADD COLUMN layout text NOT NULL DEFAULT 'long'
  CHECK (layout IN ('long', 'wide'));
-- The schedule whose run an export is; one export per schedule and period, whatever happens
-- (two processes, a restart between the claim and the insert).
ALTER TABLE export.exports ADD COLUMN schedule_key text;
CREATE UNIQUE INDEX exports_schedule_period_idx ON export.exports (schedule_key, period_from)
  WHERE schedule_key IS NOT NULL;

-- A scheduled export: the selection without its period; each run exports the previous day,
-- week or month of the customer's time zone. `next_run_at` is claimed with UPDATE ... RETURNING.
CREATE TABLE export.schedules (
  key text PRIMARY KEY,
  customer_key text NOT NULL,
  user_id text NOT NULL,
  name text NOT NULL,
  frequency text NOT NULL CHECK (frequency IN ('DAILY', 'WEEKLY', 'MONTHLY')),
  feeders jsonb NOT NULL,
  parameters jsonb NOT NULL,
  interval text NOT NULL CHECK (interval IN ('20s', '10min', '1h', '1d')),
  format text NOT NULL CHECK (format IN ('csv', 'parquet', 'duckdb')),
  layout text NOT NULL CHECK (layout IN ('long', 'wide')),
  directory_structure text NOT NULL
    CHECK (directory_structure IN ('flat', 'station', 'node', 'feeder', 'month')),
  active boolean NOT NULL DEFAULT true,
  next_run_at timestamptz NOT NULL,
  last_run_at timestamptz,
  last_export_key text,
  runs integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX schedules_user_idx ON export.schedules (customer_key, user_id, created_at);
CREATE INDEX schedules_due_idx ON export.schedules (next_run_at) WHERE active;

-- The HMAC key of the download links: kept so that a link stays valid across a restart.
CREATE TABLE export.link_key (
  id smallint PRIMARY KEY CHECK (id = 1),
  secret text NOT NULL
);
