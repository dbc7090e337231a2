-- API clients (acm) and the external_v1 API: the clients of each customer (secrets stored as
-- SHA-256 of a 256-bit random secret), the monthly token counters (the quota is one atomic
-- UPSERT, exact under concurrency; the client limit is checked under a per-customer advisory
-- lock), and the audit log of every external call.
CREATE SCHEMA IF NOT EXISTS api_clients;

CREATE TABLE api_clients.clients (
  id text PRIMARY KEY,
  customer_key text NOT NULL,
  name text NOT NULL CHECK (char_length(name) BETWEEN 3 AND 60),
  permission text NOT NULL CHECK (permission IN ('read', 'write')),
  client_id text NOT NULL UNIQUE,
  secret_hash text NOT NULL,
  secret_version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  rotated_at timestamptz,
  last_used_at timestamptz,
  UNIQUE (customer_key, name)
);

CREATE TABLE api_clients.token_counts (
  customer_key text NOT NULL,
  month text NOT NULL,
  issued integer NOT NULL CHECK (issued >= 0),
  PRIMARY KEY (customer_key, month)
);

CREATE TABLE api_clients.client_token_counts (
  client_id text NOT NULL,
  month text NOT NULL,
  issued integer NOT NULL CHECK (issued >= 0),
  PRIMARY KEY (client_id, month)
);

CREATE TABLE api_clients.audit_log (
  id bigserial PRIMARY KEY,
  customer_key text NOT NULL,
  client_id text NOT NULL,
  method text NOT NULL,
  route text NOT NULL,
  status smallint NOT NULL,
  duration_ms integer NOT NULL,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_customer_at ON api_clients.audit_log (customer_key, at DESC);
