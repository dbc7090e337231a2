-- User management: password history (reuse check, code 602) and e-mail validation tokens.
CREATE TABLE users.password_history (
  user_id text NOT NULL REFERENCES users.users (id) ON DELETE CASCADE,
  password_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX password_history_user_idx ON users.password_history (user_id, created_at DESC);
-- Single-use links: only the SHA-256 of the token is stored; the e-mail it was sent to is kept
-- so that a link for an address the user has since changed validates nothing.
CREATE TABLE users.email_validation_tokens (
  token_hash text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users.users (id) ON DELETE CASCADE,
  email text NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX email_validation_tokens_user_idx ON users.email_validation_tokens (user_id);
CREATE INDEX users_name_idx ON users.users (customer_key, lower(name));
