-- Grid setup (issue 4): uploaded map layers per customer, and the sections of the MV topology of
-- an MV feeder group (the MV feeders, in order, that the MV view evaluates together).
CREATE TABLE grid.map_layers (
  id text PRIMARY KEY,
  customer_key text NOT NULL,
  name text NOT NULL,
  file_name text NOT NULL,
  format text NOT NULL CHECK (format IN ('KML', 'GEOJSON')),
  size_bytes integer NOT NULL,
  feature_count integer NOT NULL,
  -- Always a GeoJSON FeatureCollection (KML is converted on upload).
  geojson jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX map_layers_customer_idx ON grid.map_layers (customer_key, created_at);
CREATE TABLE grid.mv_topology_sections (
  mv_feeder_group_id text NOT NULL REFERENCES grid.mv_feeder_groups (id),
  position smallint NOT NULL CHECK (position >= 1),
  feeder_id text NOT NULL UNIQUE REFERENCES grid.feeders (id),
  PRIMARY KEY (mv_feeder_group_id, position)
);
CREATE INDEX lv_groups_mv_feeder_group_idx ON grid.lv_groups (mv_feeder_group_id);
CREATE INDEX mv_feeder_groups_station_group_idx ON grid.mv_feeder_groups (station_group_id);
CREATE INDEX nodes_lv_group_idx ON grid.nodes (lv_group_id);
CREATE INDEX feeders_node_idx ON grid.feeders (node_id);
