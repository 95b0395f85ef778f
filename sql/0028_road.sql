-- The van's day on the road (issue 25): drivers, shifts, what happened at each stop, and where
-- each van is. A plan is a guess; these tables hold what the road decided. Nothing here is
-- written by the planner: stop taps come from drivers, positions from drivers' phones and
-- vehicle trackers.

-- Accounts have a role. A rider books; a driver runs a van's stops; a dispatcher keeps the day.
-- Everyone signs in on the same page, and each role sees and does only its own.
ALTER TABLE riders ADD COLUMN role text NOT NULL DEFAULT 'rider'
    CONSTRAINT riders_role CHECK (role IN ('rider', 'driver', 'dispatcher'));

-- A shift: one driver on one van, from start to end. One open shift per van and one per driver;
-- the partial unique indexes refuse a second, whoever writes it.
CREATE TABLE shifts (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    driver_net_id text NOT NULL REFERENCES riders (net_id),
    van_id        bigint NOT NULL REFERENCES vans (id),
    started_at    timestamptz NOT NULL,
    ended_at      timestamptz,
    ended_by      text,
    CONSTRAINT shifts_end_after_start CHECK (ended_at IS NULL OR ended_at >= started_at)
);
CREATE UNIQUE INDEX shifts_one_open_per_van ON shifts (van_id) WHERE ended_at IS NULL;
CREATE UNIQUE INDEX shifts_one_open_per_driver ON shifts (driver_net_id) WHERE ended_at IS NULL;
CREATE INDEX shifts_started ON shifts (started_at);

-- Only a driver account drives.
CREATE FUNCTION vand_shift_driver() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM riders WHERE net_id = NEW.driver_net_id AND role = 'driver') THEN
        RAISE EXCEPTION '% is not a driver account', NEW.driver_net_id
            USING ERRCODE = 'check_violation', CONSTRAINT = 'shifts_driver_role';
    END IF;
    RETURN NEW;
END;
$$;
CREATE TRIGGER shifts_driver_role BEFORE INSERT OR UPDATE OF driver_net_id ON shifts
    FOR EACH ROW EXECUTE FUNCTION vand_shift_driver();

-- Every tap a driver makes at a stop: its time and where the van was. A stop is a ride's pickup
-- or drop-off. At a pickup the driver taps 'arrived', then 'boarded' or 'no_show'; at a drop-off
-- 'arrived', then 'dropped_off'. A tap carries the client's key, so a retried request is applied
-- once; and a stop takes each action once (a double tap finds it done), and one outcome. An undone
-- tap keeps its row with undone_at set, as evidence.
CREATE TABLE stop_taps (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tap_key      uuid NOT NULL UNIQUE,
    shift_id     bigint NOT NULL REFERENCES shifts (id),
    ride_id      uuid NOT NULL REFERENCES rides (id) ON DELETE CASCADE,
    stop         text NOT NULL CHECK (stop IN ('pickup', 'dropoff')),
    action       text NOT NULL CHECK (action IN ('arrived', 'boarded', 'no_show', 'dropped_off')),
    at           timestamptz NOT NULL,
    lat          double precision CHECK (lat BETWEEN -90 AND 90),
    lon          double precision CHECK (lon BETWEEN -180 AND 180),
    accuracy_m   double precision CHECK (accuracy_m >= 0),
    undone_at    timestamptz,
    CONSTRAINT stop_taps_action_fits_stop CHECK (
        action = 'arrived'
        OR (stop = 'pickup' AND action IN ('boarded', 'no_show'))
        OR (stop = 'dropoff' AND action = 'dropped_off')),
    CONSTRAINT stop_taps_position_whole CHECK ((lat IS NULL) = (lon IS NULL))
);
CREATE UNIQUE INDEX stop_taps_once ON stop_taps (ride_id, stop, action) WHERE undone_at IS NULL;
CREATE UNIQUE INDEX stop_taps_one_outcome ON stop_taps (ride_id, stop) WHERE undone_at IS NULL AND action <> 'arrived';
CREATE INDEX stop_taps_shift ON stop_taps (shift_id, at);
CREATE INDEX stop_taps_at ON stop_taps (at);

-- What happened at each stop, read from the taps that stand: one row per stop the van reached.
CREATE VIEW stop_actuals AS
SELECT ride_id, stop,
       min(shift_id) AS shift_id,
       max(at) FILTER (WHERE action = 'arrived') AS arrived_at,
       max(at) FILTER (WHERE action <> 'arrived') AS departed_at,
       max(action) FILTER (WHERE action <> 'arrived') AS outcome
FROM stop_taps
WHERE undone_at IS NULL
GROUP BY ride_id, stop;

-- Where each van is: its latest known position, one row a van (a driver's phone or its tracker).
CREATE TABLE van_positions (
    van_id     bigint PRIMARY KEY REFERENCES vans (id) ON DELETE CASCADE,
    at         timestamptz NOT NULL,
    lat        double precision NOT NULL CHECK (lat BETWEEN -90 AND 90),
    lon        double precision NOT NULL CHECK (lon BETWEEN -180 AND 180),
    accuracy_m double precision CHECK (accuracy_m >= 0),
    source     text NOT NULL CHECK (source IN ('driver', 'tracker'))
);

-- The day's trail of every van, kept for reports and pruned after VAND_TRAIL_DAYS.
CREATE TABLE van_trail (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    van_id     bigint NOT NULL REFERENCES vans (id) ON DELETE CASCADE,
    at         timestamptz NOT NULL,
    lat        double precision NOT NULL CHECK (lat BETWEEN -90 AND 90),
    lon        double precision NOT NULL CHECK (lon BETWEEN -180 AND 180),
    accuracy_m double precision CHECK (accuracy_m >= 0),
    source     text NOT NULL CHECK (source IN ('driver', 'tracker'))
);
CREATE INDEX van_trail_van_at ON van_trail (van_id, at);
CREATE INDEX van_trail_at ON van_trail (at);

-- Every node hears of a new position at once (the van's id), to carry ETAs to riders' streams.
CREATE FUNCTION vand_van_position_notify() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('vand_van_positions', NEW.van_id::text);
    RETURN NULL;
END;
$$;
CREATE TRIGGER van_positions_notify AFTER INSERT OR UPDATE ON van_positions
    FOR EACH ROW EXECUTE FUNCTION vand_van_position_notify();

-- A vehicle tracker (an AVL unit) posts its van's positions with a token of its own; only the
-- token's SHA-256 is kept. One token a van: a new one replaces the old.
CREATE TABLE van_tracker_tokens (
    van_id       bigint PRIMARY KEY REFERENCES vans (id) ON DELETE CASCADE,
    token_sha256 bytea NOT NULL UNIQUE,
    created_at   timestamptz NOT NULL DEFAULT now(),
    created_by   text NOT NULL
);
