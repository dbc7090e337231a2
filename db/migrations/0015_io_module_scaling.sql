-- The measuring range of an analog input module: its signal (4-20 mA, 0-10 V) maps linearly
-- onto [range_min, range_max] in range_unit (e.g. 4-20 mA -> -20..80 degrees C). All three set,
-- or none (the raw signal is shown).
ALTER TABLE grid.io_modules ADD COLUMN range_min double precision;
ALTER TABLE grid.io_modules ADD COLUMN range_max double precision;
ALTER TABLE grid.io_modules ADD COLUMN range_unit text;
ALTER TABLE grid.io_modules ADD CONSTRAINT io_modules_range CHECK (
  (range_min IS NULL AND range_max IS NULL AND range_unit IS NULL)
  OR (module_type = 'ANALOG_INPUT' AND range_min < range_max AND range_unit IS NOT NULL)
);
