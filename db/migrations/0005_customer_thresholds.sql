-- Warning thresholds of the global settings (spec 2.8/3), in percent of nominal.
ALTER TABLE customers.customers
  ADD COLUMN overvoltage_threshold_pct numeric(5, 2) NOT NULL DEFAULT 10,
  ADD COLUMN undervoltage_threshold_pct numeric(5, 2) NOT NULL DEFAULT 10,
  ADD COLUMN overcurrent_threshold_pct numeric(6, 2) NOT NULL DEFAULT 100;
