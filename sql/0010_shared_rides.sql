-- Shared rides on van routes (issue 14).
--
-- A van is no longer held by one ride from pickup to drop-off: each van's service day is a
-- route of stops (pickups and drop-offs) in the order of their planned times, and several
-- riders may be aboard at once. What a rider is promised is a window, not an instant:
--   promise 'pickup'    the van arrives at the pickup within [window_start, window_end];
--   promise 'arrive_by' the van arrives at the drop-off within [window_start, window_end].
-- pickup_at is the planned arrival at the pickup, estimated_dropoff_at the planned arrival at
-- the drop-off; the planner may move both inside the promise. max_ride_seconds bounds
-- estimated_dropoff_at - pickup_at (boarding included).

-- A ride's seats and wheelchair positions, defined once (Ride.seatsNeeded and
-- Ride.wheelchairPositionsNeeded in Swift; RideLoadSQLTests keeps them equal).
CREATE FUNCTION ride_seats(needs_wheelchair boolean, companions integer) RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT companions + CASE WHEN needs_wheelchair THEN 0 ELSE 1 END $$;
CREATE FUNCTION ride_wheelchair_positions(needs_wheelchair boolean) RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT CASE WHEN needs_wheelchair THEN 1 ELSE 0 END $$;

ALTER TABLE rides
    ADD COLUMN promise          text NOT NULL DEFAULT 'pickup' CHECK (promise IN ('pickup', 'arrive_by')),
    ADD COLUMN window_start     timestamptz,
    ADD COLUMN window_end       timestamptz,
    ADD COLUMN max_ride_seconds integer CHECK (max_ride_seconds > 0);
-- Rides booked under the one-rider model were promised their pickup time; they keep it as the
-- start of a window of the default width (15 minutes) and get the default ride-time limit
-- (twice the trip they were planned with, at least 15 minutes more than it).
UPDATE rides SET window_start = pickup_at,
                 window_end = pickup_at + interval '15 minutes',
                 max_ride_seconds = greatest(2 * extract(epoch FROM estimated_dropoff_at - pickup_at),
                                             extract(epoch FROM estimated_dropoff_at - pickup_at) + 900)::integer;
ALTER TABLE rides
    ALTER COLUMN window_start SET NOT NULL,
    ALTER COLUMN window_end SET NOT NULL,
    ALTER COLUMN max_ride_seconds SET NOT NULL,
    ADD CONSTRAINT rides_window_order CHECK (window_end >= window_start);

-- A ride written without a promise (by psql, or an older writer) is promised its planned
-- time: a window of the default width from it, and the default ride-time limit.
CREATE FUNCTION vand_ride_default_promise() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.window_start IS NULL OR NEW.window_end IS NULL THEN
        IF NEW.promise = 'arrive_by' THEN
            NEW.window_end := coalesce(NEW.window_end, NEW.estimated_dropoff_at);
            NEW.window_start := coalesce(NEW.window_start, NEW.window_end - interval '15 minutes');
        ELSE
            NEW.window_start := coalesce(NEW.window_start, NEW.pickup_at);
            NEW.window_end := coalesce(NEW.window_end, NEW.window_start + interval '15 minutes');
        END IF;
    END IF;
    NEW.max_ride_seconds := coalesce(NEW.max_ride_seconds,
        greatest(2 * extract(epoch FROM NEW.estimated_dropoff_at - NEW.pickup_at),
                 extract(epoch FROM NEW.estimated_dropoff_at - NEW.pickup_at) + 900)::integer);
    RETURN NEW;
END;
$$;
CREATE TRIGGER rides_default_promise BEFORE INSERT ON rides
    FOR EACH ROW EXECUTE FUNCTION vand_ride_default_promise();

-- Several riders may share a van now: the one-rider-per-van exclusion goes. What replaces it
-- is checked at commit by rides_route_check below.
ALTER TABLE rides DROP CONSTRAINT rides_no_double_booking;

-- One writer per van-day: a booking or a re-plan locks the row of the van-day it writes
-- (SELECT … FOR UPDATE), so bookings on different vans go on in parallel. `version` grows with
-- every write of the route, so a writer that planned from an older read can tell and re-plan.
CREATE TABLE van_days (
    van_id  bigint NOT NULL REFERENCES vans (id) ON DELETE CASCADE,
    day     date   NOT NULL,
    version bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (van_id, day)
);

-- The database refuses a route that breaks a promise, whoever writes it (vand, vanadmin, psql):
-- checked at commit for every ride written that holds a van.
--   - the planned stop lies inside the ride's promised window;
--   - the planned ride time is within its limit, and the drop-off comes after the pickup;
--   - at every moment of the ride, the riders aboard that van fit its seats and wheelchair positions.
CREATE FUNCTION vand_check_route() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    ride rides;
    van vans;
    worst_seats integer;
    worst_wheelchairs integer;
BEGIN
    SELECT * INTO ride FROM rides WHERE id = NEW.id;  -- the row as it is at commit
    IF NOT FOUND OR NOT ride_holds_van(ride.status) OR ride.van_id IS NULL THEN
        RETURN NULL;
    END IF;
    IF ride.promise = 'pickup' AND NOT (ride.pickup_at BETWEEN ride.window_start AND ride.window_end) THEN
        RAISE EXCEPTION 'ride % is planned for pickup at %, outside its promised window % to %',
            ride.id, ride.pickup_at, ride.window_start, ride.window_end
            USING ERRCODE = 'check_violation', CONSTRAINT = 'rides_route_window';
    END IF;
    IF ride.promise = 'arrive_by' AND NOT (ride.estimated_dropoff_at BETWEEN ride.window_start AND ride.window_end) THEN
        RAISE EXCEPTION 'ride % is planned to arrive at %, outside its promised window % to %',
            ride.id, ride.estimated_dropoff_at, ride.window_start, ride.window_end
            USING ERRCODE = 'check_violation', CONSTRAINT = 'rides_route_window';
    END IF;
    IF extract(epoch FROM ride.estimated_dropoff_at - ride.pickup_at) > ride.max_ride_seconds THEN
        RAISE EXCEPTION 'ride % is planned to last % s, more than its limit of % s',
            ride.id, extract(epoch FROM ride.estimated_dropoff_at - ride.pickup_at), ride.max_ride_seconds
            USING ERRCODE = 'check_violation', CONSTRAINT = 'rides_route_ride_time';
    END IF;
    SELECT * INTO van FROM vans WHERE id = ride.van_id;
    -- The load at each stop while this ride is aboard: every ride on the van overlapping it,
    -- summed in the order of the stops (a drop-off before a pickup at the same instant).
    SELECT coalesce(max(seats), 0), coalesce(max(wheelchairs), 0) INTO worst_seats, worst_wheelchairs FROM (
        SELECT at,
               sum(seats) OVER (ORDER BY at, seats, id ROWS UNBOUNDED PRECEDING) AS seats,
               sum(wheelchairs) OVER (ORDER BY at, seats, id ROWS UNBOUNDED PRECEDING) AS wheelchairs
        FROM (
            SELECT r.id, r.pickup_at AS at, ride_seats(r.needs_wheelchair, r.companions) AS seats,
                   ride_wheelchair_positions(r.needs_wheelchair) AS wheelchairs
            FROM rides r
            WHERE r.van_id = ride.van_id AND ride_holds_van(r.status)
              AND r.pickup_at < ride.estimated_dropoff_at AND r.estimated_dropoff_at > ride.pickup_at
            UNION ALL
            SELECT r.id, r.estimated_dropoff_at, -ride_seats(r.needs_wheelchair, r.companions),
                   -ride_wheelchair_positions(r.needs_wheelchair)
            FROM rides r
            WHERE r.van_id = ride.van_id AND ride_holds_van(r.status)
              AND r.pickup_at < ride.estimated_dropoff_at AND r.estimated_dropoff_at > ride.pickup_at
        ) stops
    ) loads
    WHERE at >= ride.pickup_at AND at < ride.estimated_dropoff_at;
    IF worst_seats > van.seats OR worst_wheelchairs > van.wheelchair_positions THEN
        RAISE EXCEPTION 'van % would carry % riders and % wheelchairs at once with ride %; it has % seats and % wheelchair positions',
            van.name, worst_seats, worst_wheelchairs, ride.id, van.seats, van.wheelchair_positions
            USING ERRCODE = 'check_violation', CONSTRAINT = 'rides_route_capacity';
    END IF;
    RETURN NULL;
END;
$$;

CREATE CONSTRAINT TRIGGER rides_route_check
    AFTER INSERT OR UPDATE OF status, van_id, pickup_at, estimated_dropoff_at, promise, window_start, window_end,
                              max_ride_seconds, needs_wheelchair, companions ON rides
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION vand_check_route();

-- What changed, in one word. A change of the promise is 'moved' (the rider hears of it); the
-- planner moving stops inside their windows is 'replanned', which is not news and writes no event;
-- a ride put on another van is 'reassigned' (the dispatcher hears of it).
CREATE OR REPLACE FUNCTION vand_ride_event_kind(op text, old_ride rides, new_ride rides) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    IF op = 'INSERT' THEN RETURN 'created'; END IF;
    IF op = 'DELETE' THEN RETURN 'deleted'; END IF;
    IF new_ride.status IS DISTINCT FROM old_ride.status THEN
        RETURN CASE new_ride.status
            WHEN 'approved' THEN 'approved'
            WHEN 'rejected' THEN 'rejected'
            WHEN 'cancelled' THEN CASE WHEN new_ride.cancelled_by = 'rider' THEN 'cancelled_by_rider' ELSE 'cancelled_by_service' END
            WHEN 'completed' THEN 'completed'
            WHEN 'no_show' THEN 'no_show'
            ELSE 'updated'
        END;
    END IF;
    IF old_ride.reminded_at IS NULL AND new_ride.reminded_at IS NOT NULL THEN RETURN 'reminder'; END IF;
    IF (new_ride.window_start, new_ride.window_end, new_ride.promise)
       IS DISTINCT FROM (old_ride.window_start, old_ride.window_end, old_ride.promise) THEN
        RETURN 'moved';
    END IF;
    IF new_ride.van_id IS DISTINCT FROM old_ride.van_id THEN RETURN 'reassigned'; END IF;
    IF (new_ride.pickup_at, new_ride.estimated_dropoff_at) IS DISTINCT FROM (old_ride.pickup_at, old_ride.estimated_dropoff_at)
       AND (to_jsonb(new_ride) - 'pickup_at' - 'estimated_dropoff_at' - 'updated_at')
           = (to_jsonb(old_ride) - 'pickup_at' - 'estimated_dropoff_at' - 'updated_at') THEN
        RETURN 'replanned';
    END IF;
    RETURN 'updated';
END;
$$;

-- A ride whose promise changed is reminded again for the new time (a planned time moving
-- inside the promise does not re-arm it: rides near their pickup are not re-planned).
CREATE OR REPLACE FUNCTION vand_ride_rearm_reminder() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.window_start IS DISTINCT FROM OLD.window_start AND NEW.reminded_at IS NOT DISTINCT FROM OLD.reminded_at THEN
        NEW.reminded_at := NULL;
    END IF;
    RETURN NEW;
END;
$$;
DROP TRIGGER rides_rearm_reminder ON rides;
CREATE TRIGGER rides_rearm_reminder BEFORE UPDATE OF window_start ON rides
    FOR EACH ROW EXECUTE FUNCTION vand_ride_rearm_reminder();

CREATE OR REPLACE FUNCTION vand_ride_event() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    ride rides;
    kind text;
    event_id bigint;
    pickup places;
    dropoff places;
BEGIN
    IF TG_OP = 'DELETE' THEN ride := OLD; ELSE ride := NEW; END IF;
    IF TG_OP = 'UPDATE' AND OLD IS NOT DISTINCT FROM NEW THEN
        RETURN NULL;  -- nothing changed
    END IF;
    kind := vand_ride_event_kind(TG_OP, OLD, NEW);
    IF kind = 'replanned' THEN
        RETURN NULL;  -- the planner moved stops inside their promised windows: not news
    END IF;
    SELECT * INTO pickup FROM places WHERE id = ride.pickup_place_id;
    SELECT * INTO dropoff FROM places WHERE id = ride.dropoff_place_id;
    INSERT INTO ride_events (ride_id, net_id, kind, payload)
    VALUES (ride.id, ride.net_id, kind, jsonb_build_object(
        'version', 1,
        'ride', vand_ride_payload(ride),
        'previous', CASE WHEN TG_OP = 'UPDATE' THEN jsonb_build_object(
            'status', OLD.status, 'pickup_at', OLD.pickup_at, 'van_id', OLD.van_id) END,
        'pickup_place', pickup.name,
        'pickup_short', COALESCE(pickup.aliases[1], pickup.name, ride.pickup_address),
        'dropoff_place', dropoff.name,
        'dropoff_short', COALESCE(dropoff.aliases[1], dropoff.name, ride.dropoff_address),
        'van', (SELECT name FROM vans WHERE id = ride.van_id),
        'actor', COALESCE(NULLIF(current_setting('vand.actor', true), ''), current_user)
    ))
    RETURNING id INTO event_id;
    INSERT INTO deliveries (event_id, sink) VALUES (event_id, 'webhook'), (event_id, 'log');
    -- The rider hears of decisions, re-timings, cancellations by the service and reminders.
    IF kind IN ('approved', 'rejected', 'cancelled_by_service', 'reminder', 'moved') THEN
        INSERT INTO deliveries (event_id, sink) VALUES (event_id, 'rider');
    END IF;
    PERFORM pg_notify('vand_ride_events', event_id::text);
    RETURN NULL;
END;
$$;


-- The webhook's ride gains the promise (fields added: still version 1, docs/events.md).
CREATE OR REPLACE FUNCTION vand_ride_payload(ride rides) RETURNS jsonb
LANGUAGE sql STABLE AS $$
    SELECT jsonb_build_object(
        'id', ($1).id,
        'net_id', ($1).net_id,
        'kind', ($1).kind,
        'status', ($1).status,
        'pickup_address', ($1).pickup_address,
        'pickup_lat', ($1).pickup_lat,
        'pickup_lon', ($1).pickup_lon,
        'pickup_place_id', ($1).pickup_place_id,
        'dropoff_address', ($1).dropoff_address,
        'dropoff_lat', ($1).dropoff_lat,
        'dropoff_lon', ($1).dropoff_lon,
        'dropoff_place_id', ($1).dropoff_place_id,
        'requested_at', ($1).requested_at,
        'pickup_at', ($1).pickup_at,
        'estimated_dropoff_at', ($1).estimated_dropoff_at,
        'needs_wheelchair', ($1).needs_wheelchair,
        'companions', ($1).companions,
        'note', ($1).note,
        'van_id', ($1).van_id,
        'decided_by', ($1).decided_by,
        'decided_at', ($1).decided_at,
        'reason', ($1).reason,
        'series_id', ($1).series_id,
        'cancelled_by', ($1).cancelled_by,
        'cancelled_late', ($1).cancelled_late,
        'cancelled_at', ($1).cancelled_at,
        'reminded_at', ($1).reminded_at,
        'created_at', ($1).created_at,
        'updated_at', ($1).updated_at,
        'promise', ($1).promise,
        'window_start', ($1).window_start,
        'window_end', ($1).window_end,
        'max_ride_seconds', ($1).max_ride_seconds)
$$;
