-- The road's taps as ride events (issue 25). A tap that stands tells the dispatcher's webhook and
-- log what happened at a stop: 'arrived' and 'boarded' come from here; 'no_show' and 'completed'
-- come from the ride's status change, which the same transaction makes (and carry the tap too);
-- an undo is 'tap_undone'. Each payload is version 1 with a `road` object: the stop, the action,
-- when, where the van was, the shift, the driver and the van. A rider hears "The van is here"
-- when the van arrives at her pickup.

-- The road object of a tap.
CREATE FUNCTION vand_road_payload(tap stop_taps) RETURNS jsonb
LANGUAGE sql STABLE AS $$
    SELECT jsonb_build_object(
        'stop', tap.stop,
        'action', tap.action,
        'at', tap.at,
        'lat', tap.lat,
        'lon', tap.lon,
        'accuracy_m', tap.accuracy_m,
        'undone_at', tap.undone_at,
        'tap_key', tap.tap_key,
        'shift', tap.shift_id,
        'driver', s.driver_net_id,
        'van', v.name)
    FROM shifts s JOIN vans v ON v.id = s.van_id
    WHERE s.id = tap.shift_id
$$;

-- A ride event with the ride's payload (as vand_ride_event writes it) and extra members.
CREATE FUNCTION vand_write_ride_event(ride rides, kind text, previous jsonb, extra jsonb) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    event_id bigint;
    pickup places;
    dropoff places;
BEGIN
    SELECT * INTO pickup FROM places WHERE id = ride.pickup_place_id;
    SELECT * INTO dropoff FROM places WHERE id = ride.dropoff_place_id;
    INSERT INTO ride_events (ride_id, net_id, kind, payload)
    VALUES (ride.id, ride.net_id, kind, jsonb_build_object(
        'version', 1,
        'ride', vand_ride_payload(ride),
        'previous', previous,
        'pickup_place', pickup.name,
        'pickup_short', COALESCE(pickup.aliases[1], pickup.name, ride.pickup_address),
        'dropoff_place', dropoff.name,
        'dropoff_short', COALESCE(dropoff.aliases[1], dropoff.name, ride.dropoff_address),
        'van', (SELECT name FROM vans WHERE id = ride.van_id),
        'actor', COALESCE(NULLIF(current_setting('vand.actor', true), ''), current_user)
    ) || extra)
    RETURNING id INTO event_id;
    INSERT INTO deliveries (event_id, sink) VALUES (event_id, 'webhook'), (event_id, 'log');
    -- The rider hears of decisions, re-timings, cancellations by the service, reminders, and
    -- the van arriving at her pickup.
    IF kind IN ('approved', 'rejected', 'cancelled_by_service', 'reminder', 'moved')
       OR (kind = 'arrived' AND extra->'road'->>'stop' = 'pickup') THEN
        INSERT INTO deliveries (event_id, sink) VALUES (event_id, 'rider');
    END IF;
    PERFORM pg_notify('vand_ride_events', event_id::text);
    RETURN event_id;
END;
$$;

-- Ride changes, as before, with two road rules: a ride ended on the road (completed, no-show)
-- carries the tap that ended it; and an undone tap putting the ride back to approved is told by
-- the tap's own 'tap_undone' event, not as a fresh approval.
CREATE OR REPLACE FUNCTION vand_ride_event() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    ride rides;
    kind text;
    extra jsonb := '{}'::jsonb;
    ended stop_taps;
BEGIN
    IF TG_OP = 'DELETE' THEN ride := OLD; ELSE ride := NEW; END IF;
    IF TG_OP = 'UPDATE' AND OLD IS NOT DISTINCT FROM NEW THEN
        RETURN NULL;  -- nothing changed
    END IF;
    IF TG_OP = 'UPDATE' AND OLD.status IN ('completed', 'no_show') AND NEW.status = 'approved'
       AND EXISTS (SELECT 1 FROM stop_taps t WHERE t.ride_id = NEW.id AND t.undone_at IS NOT NULL
                   AND t.action = CASE OLD.status WHEN 'completed' THEN 'dropped_off' ELSE 'no_show' END) THEN
        RETURN NULL;  -- an undone tap: its 'tap_undone' event says so
    END IF;
    kind := vand_ride_event_kind(TG_OP, OLD, NEW);
    IF kind = 'replanned' THEN
        RETURN NULL;  -- the planner moved stops inside their promised windows: not news
    END IF;
    IF kind IN ('completed', 'no_show') THEN
        SELECT * INTO ended FROM stop_taps t
        WHERE t.ride_id = ride.id AND t.undone_at IS NULL AND t.action = CASE kind WHEN 'completed' THEN 'dropped_off' ELSE 'no_show' END;
        IF FOUND THEN extra := jsonb_build_object('road', vand_road_payload(ended)); END IF;
    END IF;
    PERFORM vand_write_ride_event(ride, kind,
        CASE WHEN TG_OP = 'UPDATE' THEN jsonb_build_object('status', OLD.status, 'pickup_at', OLD.pickup_at, 'van_id', OLD.van_id) END,
        extra);
    RETURN NULL;
END;
$$;

-- A tap recorded ('arrived', 'boarded') or undone ('tap_undone'): a ride event of its own.
CREATE FUNCTION vand_tap_event() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    ride rides;
    kind text;
BEGIN
    IF TG_OP = 'INSERT' AND NEW.action IN ('arrived', 'boarded') THEN
        kind := NEW.action;
    ELSIF TG_OP = 'UPDATE' AND OLD.undone_at IS NULL AND NEW.undone_at IS NOT NULL THEN
        kind := 'tap_undone';
    ELSE
        RETURN NULL;
    END IF;
    SELECT * INTO ride FROM rides WHERE id = NEW.ride_id;
    PERFORM vand_write_ride_event(ride, kind, NULL, jsonb_build_object('road', vand_road_payload(NEW)));
    RETURN NULL;
END;
$$;

CREATE TRIGGER stop_taps_events AFTER INSERT OR UPDATE OF undone_at ON stop_taps
    FOR EACH ROW EXECUTE FUNCTION vand_tap_event();
