-- Power-quality reports (pqm): each report is also its background job (status, stage, percent,
-- attempts), so a report survives a restart; its PDF is kept beside it.
CREATE SCHEMA IF NOT EXISTS power_quality;

CREATE TABLE power_quality.reports (
  key text PRIMARY KEY,
  customer_key text NOT NULL,
  name text NOT NULL,
  language text NOT NULL CHECK (language IN ('en', 'fr', 'de', 'uk')),
  node_id text NOT NULL,
  node_name text NOT NULL,
  ew_name text NOT NULL,
  -- [{id, name, slot}] of the feeders reported on.
  feeders jsonb NOT NULL,
  start_at timestamptz NOT NULL,
  end_at timestamptz NOT NULL,
  standard text NOT NULL CHECK (standard IN ('EN50160', 'CUSTOM')),
  limit_set text NOT NULL,
  status text NOT NULL CHECK (status IN ('SCHEDULED', 'IN_PROGRESS', 'COMPLETED', 'FAILED',
    'CANCELLED')),
  result text CHECK (result IN ('PASSED', 'NOT_PASSED')),
  stage text CHECK (stage IN ('LOADING', 'EVALUATING', 'PDF', 'DONE')),
  percent smallint NOT NULL DEFAULT 0,
  -- Runs begun; a run a dead process left is resumed while attempts stay below the limit.
  attempts integer NOT NULL DEFAULT 0,
  -- When the job may run: the period's end plus the aggregation's grace.
  due_at timestamptz NOT NULL,
  failure jsonb,
  summary jsonb,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  has_pdf boolean NOT NULL DEFAULT false,
  -- The custom limit set's overrides as they were at creation; null: EN 50160.
  limits jsonb
);
CREATE INDEX reports_customer_created_idx ON power_quality.reports (customer_key, created_at);
CREATE INDEX reports_due_idx ON power_quality.reports (status, due_at);
CREATE UNIQUE INDEX reports_customer_name_idx ON power_quality.reports (customer_key, lower(name));

CREATE TABLE power_quality.report_files (
  report_key text PRIMARY KEY REFERENCES power_quality.reports (key) ON DELETE CASCADE,
  pdf bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Custom limit sets: EN 50160 with an administrator's overrides (EN 50160 itself is locked).
CREATE TABLE power_quality.limit_sets (
  key text PRIMARY KEY,
  customer_key text NOT NULL,
  name text NOT NULL,
  overrides jsonb NOT NULL,
  updated_by text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX limit_sets_customer_name_idx
  ON power_quality.limit_sets (customer_key, lower(name));
