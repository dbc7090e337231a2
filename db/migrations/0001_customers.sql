-- Customers (csm): one row per utility served by this installation.
CREATE SCHEMA IF NOT EXISTS customers;
CREATE TABLE customers.customers (
  key text PRIMARY KEY,
  auth_connection_name text NOT NULL UNIQUE,
  name text NOT NULL,
  default_language text,
  available_languages text[] NOT NULL DEFAULT ARRAY['en'],
  default_map_zoom_level integer,
  default_lv_nominal_voltage text,
  default_mv_nominal_voltage numeric(8, 2),
  default_frequency integer NOT NULL DEFAULT 50 CHECK (default_frequency IN (50, 60)),
  default_timezone text NOT NULL DEFAULT 'UTC',
  default_date_format text NOT NULL DEFAULT 'DD.MM.YYYY',
  default_time_format text NOT NULL DEFAULT 'HH:mm',
  default_number_format text NOT NULL DEFAULT '1''234.56',
  country text NOT NULL DEFAULT 'CH',
  map_center_lat double precision NOT NULL DEFAULT 46.812355,
  map_center_lng double precision NOT NULL DEFAULT 8.263672,
  applications text[] NOT NULL DEFAULT ARRAY['app:grid-metering', 'hes:data-export'],
  authorized_email_domains text[] NOT NULL DEFAULT ARRAY[]::text[],
  created_at timestamptz NOT NULL DEFAULT now()
);
