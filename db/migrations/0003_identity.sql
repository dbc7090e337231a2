-- Identity: the embedded OpenID provider's state (sessions, grants, codes, tokens) and keys.
CREATE SCHEMA IF NOT EXISTS identity;
CREATE TABLE identity.oidc_payloads (
  model text NOT NULL,
  id text NOT NULL,
  payload jsonb NOT NULL,
  grant_id text,
  user_code text,
  uid text,
  expires_at timestamptz,
  consumed_at timestamptz,
  PRIMARY KEY (model, id)
);
CREATE INDEX oidc_payloads_grant_idx ON identity.oidc_payloads (grant_id);
CREATE INDEX oidc_payloads_uid_idx ON identity.oidc_payloads (uid);
CREATE INDEX oidc_payloads_expires_idx ON identity.oidc_payloads (expires_at);
-- Per-install secrets, generated on first start: signing keys (JWKS) and cookie keys.
CREATE TABLE identity.secrets (
  name text PRIMARY KEY,
  value jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
