-- Custom monitoring of fast current changes (evm): requests that mark a window of full-resolution
-- 20-s values of a node (manual, or started by an automatic trigger) and the triggers.
CREATE SCHEMA IF NOT EXISTS monitoring;

CREATE TABLE monitoring.custom_triggers (
  id text PRIMARY KEY,
  customer_key text NOT NULL,
  -- NULL: the customer-wide trigger, used at every node without an enabled trigger of its own.
  node_id text,
  delta_lv_a numeric(7, 2) NOT NULL CHECK (delta_lv_a > 0),
  delta_mv_a numeric(7, 2) NOT NULL CHECK (delta_mv_a > 0),
  duration_min integer NOT NULL
    CHECK (duration_min BETWEEN 1 AND 5 OR (duration_min BETWEEN 10 AND 60 AND duration_min % 10 = 0)),
  enabled boolean NOT NULL DEFAULT true,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  last_fired_at timestamptz,
  last_fire_status text CHECK (last_fire_status IN ('STARTED', 'FAILURE')),
  last_fire_code integer,
  last_request_id text
);
-- One enabled trigger per node, and one customer-wide (330 otherwise).
CREATE UNIQUE INDEX custom_triggers_enabled_scope_idx
  ON monitoring.custom_triggers (customer_key, coalesce(node_id, ''))
  WHERE enabled;

CREATE TABLE monitoring.custom_requests (
  id text PRIMARY KEY,
  customer_key text NOT NULL,
  node_id text NOT NULL,
  -- NULL: every feeder of the node.
  feeder_id text,
  -- The cell installed at the node when the request started: its values and its monthly count.
  cell_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('MANUAL', 'AUTOMATIC')),
  trigger_id text REFERENCES monitoring.custom_triggers (id),
  duration_min integer,
  started_at timestamptz NOT NULL,
  -- NULL: runs until stopped.
  ends_at timestamptz,
  stopped_at timestamptz,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- RUNNING until stopped (STOPPED) or past ends_at (FINISHED, written lazily by the next
  -- request or read of the customer).
  status text NOT NULL CHECK (status IN ('RUNNING', 'STOPPED', 'FINISHED')),
  CHECK ((kind = 'AUTOMATIC') = (trigger_id IS NOT NULL)),
  CHECK ((duration_min IS NULL) = (ends_at IS NULL))
);
CREATE INDEX custom_requests_customer_status_idx
  ON monitoring.custom_requests (customer_key, status);
CREATE INDEX custom_requests_cell_started_idx
  ON monitoring.custom_requests (cell_id, started_at);
CREATE INDEX custom_requests_node_idx ON monitoring.custom_requests (node_id, started_at DESC);
-- Never two running requests on one node (331 / 333), even under a race the lock would miss.
CREATE UNIQUE INDEX custom_requests_running_node_idx
  ON monitoring.custom_requests (node_id)
  WHERE status = 'RUNNING';
