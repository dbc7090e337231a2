-- Change counters (issue 18): cheap "did it change?" checks for what the ingest path and the
-- grid monitoring hold in memory. A statement that changes the structure tables or a cell's
-- placement or credential bumps a counter in its own transaction, so readers compare one row
-- instead of scanning thousands of rows (count and max(xmin) of 30,000 feeders, an md5 of every
-- cell's placement, all credentials every minute) on the event loop of the embedded database.
--   structure: station groups, MV feeder groups, LV groups, nodes, feeders, cells' placement.
--   cells: a cell's credential, revocation, customer or node, and feeders (a cell's slots).
-- Device status writes (last_seen, firmware, GPS, GSM) bump nothing.
CREATE TABLE grid.change_counters (
  name text PRIMARY KEY,
  version bigint NOT NULL DEFAULT 0
);
INSERT INTO grid.change_counters (name, version) VALUES ('structure', 0), ('cells', 0);

CREATE FUNCTION grid.bump_change_counters() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE grid.change_counters SET version = version + 1 WHERE name = ANY (TG_ARGV);
  RETURN NULL;
END
$$;

CREATE TRIGGER station_groups_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
  ON grid.station_groups FOR EACH STATEMENT EXECUTE FUNCTION grid.bump_change_counters('structure');
CREATE TRIGGER mv_feeder_groups_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
  ON grid.mv_feeder_groups FOR EACH STATEMENT EXECUTE FUNCTION grid.bump_change_counters('structure');
CREATE TRIGGER lv_groups_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
  ON grid.lv_groups FOR EACH STATEMENT EXECUTE FUNCTION grid.bump_change_counters('structure');
CREATE TRIGGER nodes_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
  ON grid.nodes FOR EACH STATEMENT EXECUTE FUNCTION grid.bump_change_counters('structure');
CREATE TRIGGER feeders_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
  ON grid.feeders FOR EACH STATEMENT EXECUTE FUNCTION grid.bump_change_counters('structure', 'cells');
CREATE TRIGGER cells_added_or_removed AFTER INSERT OR DELETE OR TRUNCATE
  ON grid.cells FOR EACH STATEMENT EXECUTE FUNCTION grid.bump_change_counters('structure', 'cells');
CREATE TRIGGER cells_placed AFTER UPDATE OF node_id, type, revoked, customer_key, credential_hash
  ON grid.cells FOR EACH STATEMENT EXECUTE FUNCTION grid.bump_change_counters('structure', 'cells');
