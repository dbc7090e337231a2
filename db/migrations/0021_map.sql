-- An optional online basemap for the grid maps (issue 19): a raster tile URL template with
-- {z}/{x}/{y} (https) and its attribution. NULL: the bundled offline basemap (the default).
ALTER TABLE customers.customers
  ADD COLUMN map_tile_url text,
  ADD COLUMN map_tile_attribution text;
