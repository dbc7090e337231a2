-- Power-quality auto-analyses (#auto-analyses): a weekly schedule per customer whose due time
-- (next_run_at) is claimed by one run at a time; each run inserts its reports (ordinary reports,
-- marked with auto_run_key) in the transaction that marks the run CREATED, so a restart never
-- runs a due time twice. And the weekly grid-wide EN 50160 compliance: one job per customer and
-- ISO week, one verdict per node.
CREATE TABLE power_quality.auto_analyses (
  key text PRIMARY KEY,
  customer_key text NOT NULL,
  name text NOT NULL,
  language text NOT NULL CHECK (language IN ('en', 'fr', 'de', 'uk')),
  scope text NOT NULL CHECK (scope IN ('NODES', 'LV_GROUP', 'MV_GROUP')),
  nodes jsonb NOT NULL,
  group_id text,
  group_name text,
  standard text NOT NULL CHECK (standard IN ('EN50160', 'CUSTOM')),
  limit_set text NOT NULL,
  limit_set_key text,
  limits jsonb,
  weekday smallint NOT NULL CHECK (weekday BETWEEN 1 AND 7),
  hour smallint NOT NULL CHECK (hour BETWEEN 0 AND 23),
  timezone text NOT NULL,
  start_date text NOT NULL,
  status text NOT NULL CHECK (status IN ('ACTIVE', 'PAUSED')),
  next_run_at timestamptz,
  last_run_at timestamptz,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX auto_analyses_due_idx ON power_quality.auto_analyses (status, next_run_at);
CREATE UNIQUE INDEX auto_analyses_customer_name_idx
  ON power_quality.auto_analyses (customer_key, lower(name));

CREATE TABLE power_quality.auto_runs (
  key text PRIMARY KEY,
  analysis_key text NOT NULL REFERENCES power_quality.auto_analyses (key) ON DELETE CASCADE,
  customer_key text NOT NULL,
  scheduled_for timestamptz NOT NULL,
  week_start timestamptz NOT NULL,
  manual boolean NOT NULL DEFAULT false,
  status text NOT NULL CHECK (status IN ('PENDING', 'CREATING', 'CREATED', 'FAILED')),
  attempts integer NOT NULL DEFAULT 0,
  items jsonb NOT NULL DEFAULT '[]'::jsonb,
  failure jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE UNIQUE INDEX auto_runs_once_idx ON power_quality.auto_runs (analysis_key, scheduled_for);
CREATE INDEX auto_runs_status_idx ON power_quality.auto_runs (status);

-- Reports an auto-analysis run made (they do not count towards the report limit, code 510).
ALTER TABLE power_quality.reports ADD COLUMN auto_run_key text;
CREATE INDEX reports_auto_run_idx ON power_quality.reports (auto_run_key);

CREATE TABLE power_quality.compliance_weeks (
  customer_key text NOT NULL,
  week_start timestamptz NOT NULL,
  status text NOT NULL CHECK (status IN ('PENDING', 'RUNNING', 'DONE', 'FAILED')),
  due_at timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  nodes integer NOT NULL DEFAULT 0,
  failure jsonb,
  started_at timestamptz,
  finished_at timestamptz,
  PRIMARY KEY (customer_key, week_start)
);

CREATE TABLE power_quality.compliance_verdicts (
  customer_key text NOT NULL,
  week_start timestamptz NOT NULL,
  node_id text NOT NULL,
  node_name text NOT NULL,
  ew_name text NOT NULL,
  lv_group text NOT NULL,
  latitude real NOT NULL,
  longitude real NOT NULL,
  passed boolean,
  failed jsonb NOT NULL,
  availability_pct real NOT NULL,
  feeders jsonb NOT NULL,
  PRIMARY KEY (customer_key, week_start, node_id)
);
