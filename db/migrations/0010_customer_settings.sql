-- Global settings of a customer (spec 2.8, 3): address, technical contact, and the logo.
ALTER TABLE customers.customers
  ADD COLUMN street text,
  ADD COLUMN postcode text,
  ADD COLUMN city text,
  ADD COLUMN technical_contact_name text,
  ADD COLUMN technical_contact_email text,
  ADD COLUMN technical_contact_phone text,
  -- ETag of the current logo (NULL: no logo), so customer reads need no join to know of it.
  ADD COLUMN logo_etag text,
  ADD COLUMN settings_updated_at timestamptz,
  ADD COLUMN settings_updated_by text;

-- The logo as uploaded (JPEG or PNG, at most 3 MB, checked by content on upload).
CREATE TABLE customers.logos (
  customer_key text PRIMARY KEY REFERENCES customers.customers (key) ON DELETE CASCADE,
  content_type text NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg')),
  width integer NOT NULL CHECK (width > 0),
  height integer NOT NULL CHECK (height > 0),
  byte_size integer NOT NULL CHECK (byte_size BETWEEN 1 AND 3145728),
  etag text NOT NULL,
  data bytea NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
