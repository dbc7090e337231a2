-- Users (usm): people who log in; the identity provider reads them through the users module.
CREATE SCHEMA IF NOT EXISTS users;
CREATE TABLE users.users (
  id text PRIMARY KEY,
  customer_key text NOT NULL,
  email text NOT NULL,
  name text NOT NULL,
  phone text,
  role text NOT NULL CHECK (role IN ('user', 'admin', 'super-user', 'super-admin')),
  start_page text,
  language text NOT NULL DEFAULT 'en',
  apps_roles text[] NOT NULL DEFAULT ARRAY['hes:default'],
  password_hash text NOT NULL,
  user_metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
  app_metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
  latest_login timestamptz,
  disabled boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_unique ON users.users (lower(email));
CREATE INDEX users_customer_idx ON users.users (customer_key);
