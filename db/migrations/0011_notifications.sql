-- Notification centre (nsm): the notifications of each user (spec 3 and 4) and the e-mail
-- outbox kept when no SMTP server is configured.
CREATE SCHEMA IF NOT EXISTS notifications;

CREATE TABLE notifications.notifications (
  key text PRIMARY KEY,
  user_id text NOT NULL,
  customer_key text NOT NULL,
  type text NOT NULL CHECK (type IN ('GRID_MONITORING', 'DATA_EXPORT', 'POWER_QUALITY',
    'SETUP_INFORMATION', 'IO_MONITORING', 'CONNECTOR_SCADA')),
  -- The event type, e.g. NODE_STATE_CHANGED.
  name text NOT NULL,
  severity text NOT NULL CHECK (severity IN ('CRITICAL', 'WARNING', 'INFO')),
  is_read boolean NOT NULL DEFAULT false,
  creation_time timestamptz NOT NULL DEFAULT now(),
  -- number_of_alarms, state, counter, ew_name, node_name, start_time, status (spec 3).
  info jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- The {product}_id of spec 3: the cell the notification is about, when there is one.
  product_id text
);
CREATE INDEX notifications_user_time_idx
  ON notifications.notifications (user_id, creation_time DESC, key);

CREATE TABLE notifications.outbox (
  id text PRIMARY KEY,
  customer_key text NOT NULL,
  user_id text,
  recipient text NOT NULL,
  subject text NOT NULL,
  body text NOT NULL,
  -- NOTIFICATION or EMAIL_VALIDATION.
  kind text NOT NULL CHECK (kind IN ('NOTIFICATION', 'EMAIL_VALIDATION')),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX outbox_customer_time_idx ON notifications.outbox (customer_key, created_at DESC);
