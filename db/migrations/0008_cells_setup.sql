-- Cells setup (issue 4): device model, line mapping per feeder with its delivery to the cell and
-- its validation, and the I/O modules of the cells.
ALTER TABLE grid.cells ADD COLUMN device_model text NOT NULL DEFAULT 'GW4'
  CHECK (device_model IN ('GW4', 'DTVI'));
-- Incremented by every saved mapping; the cell acknowledges the version it applied.
ALTER TABLE grid.cells ADD COLUMN mapping_version integer NOT NULL DEFAULT 0;
ALTER TABLE grid.cells ADD COLUMN mapping_acked_version integer NOT NULL DEFAULT 0;
ALTER TABLE grid.cells ADD COLUMN mapping_acked_at timestamptz;
-- The latest validation: { at, verdict, certainty, feeders: [{ feeder_id, verdict, ... }] }.
ALTER TABLE grid.cells ADD COLUMN validation jsonb;
CREATE INDEX cells_customer_type_idx ON grid.cells (customer_key, type, id);
CREATE TABLE grid.cell_mappings (
  cell_id text NOT NULL REFERENCES grid.cells (id) ON DELETE CASCADE,
  feeder_id text NOT NULL REFERENCES grid.feeders (id) ON DELETE CASCADE,
  phase text NOT NULL CHECK (phase IN ('L1', 'L2', 'L3', 'N')),
  probe smallint NOT NULL CHECK (probe BETWEEN 1 AND 4),
  PRIMARY KEY (cell_id, feeder_id, phase),
  UNIQUE (cell_id, feeder_id, probe)
);
CREATE INDEX cell_mappings_feeder_idx ON grid.cell_mappings (feeder_id);
CREATE TABLE grid.io_modules (
  id text PRIMARY KEY,
  customer_key text NOT NULL,
  name text NOT NULL,
  module_type text NOT NULL CHECK (module_type IN ('DIGITAL_INPUT', 'DIGITAL_OUTPUT', 'ANALOG_INPUT')),
  system_type text NOT NULL,
  size smallint NOT NULL CHECK (size IN (2, 4, 8)),
  resolution double precision NOT NULL CHECK (resolution BETWEEN -1 AND 1),
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (customer_key, name)
);
-- Modules activated on a cell, in slot order (the protocol's I/O module number 1..8).
CREATE TABLE grid.cell_io_modules (
  cell_id text NOT NULL REFERENCES grid.cells (id) ON DELETE CASCADE,
  module_id text NOT NULL REFERENCES grid.io_modules (id),
  slot smallint NOT NULL CHECK (slot BETWEEN 1 AND 8),
  active boolean NOT NULL DEFAULT true,
  PRIMARY KEY (cell_id, module_id),
  UNIQUE (cell_id, slot)
);
CREATE INDEX cell_io_modules_module_idx ON grid.cell_io_modules (module_id);
