-- SCADA connector: per profile, the deadband of each float quantity in its unit (U V, I A, P kW,
-- Q kvar, FREQUENCY Hz): a new 20-s value closer than it to the value last sent is not sent
-- spontaneously. Absent or 0: every new value is sent (the behaviour before this migration).
ALTER TABLE scada.profiles ADD COLUMN deadbands jsonb NOT NULL DEFAULT '{}'::jsonb;
