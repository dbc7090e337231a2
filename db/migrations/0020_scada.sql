-- SCADA connector (scm): one profile per SCADA master (its IP address, the TCP port the product
-- listens on for it, the common address ASDU, the IEC 60870-5-104 timers and windows) and its
-- point list in feeder order (information object addresses).
CREATE SCHEMA IF NOT EXISTS scada;

CREATE TABLE scada.profiles (
  id text PRIMARY KEY,
  customer_key text NOT NULL,
  name text NOT NULL,
  ip_address text NOT NULL,
  -- One listener per port in the whole installation.
  port integer NOT NULL UNIQUE CHECK (port BETWEEN 1024 AND 65535),
  asdu integer NOT NULL CHECK (asdu BETWEEN 1 AND 65534),
  activated boolean NOT NULL DEFAULT false,
  t0 integer NOT NULL,
  t1 integer NOT NULL,
  t2 integer NOT NULL,
  t3 integer NOT NULL,
  k integer NOT NULL,
  w integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  -- An ASDU in use cannot be reassigned (spec 5).
  UNIQUE (customer_key, asdu)
);

CREATE TABLE scada.points (
  profile_id text NOT NULL REFERENCES scada.profiles (id) ON DELETE CASCADE,
  position integer NOT NULL,
  ioa integer NOT NULL CHECK (ioa BETWEEN 1 AND 65535),
  node_id text NOT NULL,
  feeder_id text,
  quantity text NOT NULL,
  phase smallint,
  activated boolean NOT NULL DEFAULT true,
  PRIMARY KEY (profile_id, position),
  UNIQUE (profile_id, ioa)
);
