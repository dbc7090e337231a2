-- Grid structure (gsm): hv_mv_station_groups > mv_feeder_groups > lv_groups > nodes > feeders,
-- and the cells that measure the nodes, with their ingestion credentials.
CREATE SCHEMA IF NOT EXISTS grid;
CREATE TABLE grid.station_groups (
  id text PRIMARY KEY,
  customer_key text NOT NULL,
  name text NOT NULL,
  latitude double precision,
  longitude double precision,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX station_groups_customer_idx ON grid.station_groups (customer_key);
CREATE TABLE grid.mv_feeder_groups (
  id text PRIMARY KEY,
  station_group_id text NOT NULL REFERENCES grid.station_groups (id),
  name text NOT NULL
);
CREATE TABLE grid.lv_groups (
  id text PRIMARY KEY,
  mv_feeder_group_id text NOT NULL REFERENCES grid.mv_feeder_groups (id),
  name text NOT NULL
);
CREATE TABLE grid.nodes (
  id text PRIMARY KEY,
  lv_group_id text NOT NULL REFERENCES grid.lv_groups (id),
  name text NOT NULL,
  electrical_work_key text NOT NULL UNIQUE,
  electrical_work_name text NOT NULL,
  electrical_work_type text NOT NULL
    CHECK (electrical_work_type IN ('MV_LV_STATION', 'LV_CABINET', 'LV_ACTUATOR', 'MV_CABINET')),
  latitude double precision NOT NULL,
  longitude double precision NOT NULL,
  -- Position along the LV grid (0 at the transformer, 1 at the far end): drives simulation and
  -- lets alarm suppression order nodes from upstream to downstream.
  electrical_distance double precision NOT NULL DEFAULT 0,
  upstream_node_id text REFERENCES grid.nodes (id)
);
CREATE TABLE grid.feeders (
  id text PRIMARY KEY,
  node_id text NOT NULL REFERENCES grid.nodes (id),
  slot smallint NOT NULL CHECK (slot BETWEEN 1 AND 6),
  name text NOT NULL,
  type text NOT NULL
    CHECK (type IN ('TRANSFORMER', 'LV_LINE', 'MV_LINE', 'PV_INVERTER', 'BATTERY', 'EVSE', 'BOILER')),
  direction text NOT NULL CHECK (direction IN ('IN', 'OUT')),
  nominal_current_a double precision NOT NULL,
  parameters jsonb NOT NULL DEFAULT '{}'::jsonb,
  UNIQUE (node_id, slot)
);
CREATE TABLE grid.cells (
  id text PRIMARY KEY,
  customer_key text NOT NULL,
  serial_number text NOT NULL UNIQUE,
  type text NOT NULL CHECK (type IN ('IN_STOCK', 'WAITING_FOR_INSTALLATION', 'INSTALLED')),
  status text NOT NULL DEFAULT 'READY_FOR_CONFIGURATION',
  node_id text REFERENCES grid.nodes (id),
  provisioning_date timestamptz NOT NULL DEFAULT now(),
  -- SHA-256 of the random secret (the secret has 256 bits: no slow hash needed).
  credential_hash text,
  credential_issued_at timestamptz,
  revoked boolean NOT NULL DEFAULT false,
  mapping jsonb NOT NULL DEFAULT '{}'::jsonb,
  gps_fix text,
  gsm_signal text,
  firmware text,
  last_seen timestamptz,
  custom_message text
);
CREATE INDEX cells_customer_idx ON grid.cells (customer_key);
CREATE INDEX cells_node_idx ON grid.cells (node_id);
