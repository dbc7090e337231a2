-- IO monitoring (iom): the last digital state of each I/O channel the watcher has seen, so that
-- a restart notifies only real changes (never the whole plant's states again).
CREATE SCHEMA IF NOT EXISTS io_monitoring;

CREATE TABLE io_monitoring.channel_states (
  cell_id text NOT NULL,
  module smallint NOT NULL CHECK (module BETWEEN 1 AND 8),
  channel smallint NOT NULL CHECK (channel BETWEEN 1 AND 8),
  value smallint NOT NULL CHECK (value IN (0, 1)),
  changed_at timestamptz NOT NULL,
  PRIMARY KEY (cell_id, module, channel)
);
