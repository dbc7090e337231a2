-- Token revocation (docs/operations.md, "Revocation"): the last change of a user's access, kept
-- for as long as an access token issued before it could still be presented. No foreign key: the
-- row of a deleted user stays, so that their tokens are refused after a restart too.
CREATE TABLE users.access_changes (
  user_id text PRIMARY KEY,
  customer_key text NOT NULL,
  -- Tokens issued before this instant are refused (disabled, deleted, password reset by an admin).
  revoked_before timestamptz,
  -- Tokens issued up to this instant act with the user's current role and apps_roles.
  rights_changed_at timestamptz,
  changed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX access_changes_changed_at_idx ON users.access_changes (changed_at);
