-- Sign-in throttling that cannot be turned against a rider (issue 16). Failed sign-ins were
-- counted per net ID alone, so anyone who knew a net ID could lock its rider out for 15
-- minutes with five requests, again and again. Now they are counted per key:
--   scope 'account_address': one net ID (as typed) from one client address — a rider's
--       typos, or a guesser at that rider from that address;
--   scope 'address': one client address over every net ID — a guesser spraying accounts.
-- A key that passes its free failures is blocked for a while that doubles with each further
-- failure, up to a cap; a quiet hour forgets it. An attacker's address blocks itself; the
-- rider, from their own address, still signs in. One row per key, changed by an upsert,
-- so concurrent failures for one key serialise on its row and none is lost.
DROP TABLE login_failures;
DROP TABLE login_lockouts;

CREATE TABLE login_throttle (
    net_id          text NOT NULL,
    address         text NOT NULL CHECK (address <> ''),
    failures        integer NOT NULL CHECK (failures > 0),
    last_failed_at  timestamptz NOT NULL,
    blocked_until   timestamptz,
    PRIMARY KEY (net_id, address)
);
CREATE INDEX login_throttle_last_failed ON login_throttle (last_failed_at);
