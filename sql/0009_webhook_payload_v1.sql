-- The webhook's event is a documented, versioned shape (docs/events.md, "The payload,
-- version 1"), built here and only here, instead of the table row (to_jsonb): renaming
-- or adding a column of rides no longer silently changes what the dispatcher's systems
-- receive. A test (WebhookPayloadTests) fails if a documented field disappears.
CREATE FUNCTION vand_ride_payload(ride rides) RETURNS jsonb
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
        'updated_at', ($1).updated_at)
$$;

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
    IF kind IN ('approved', 'rejected', 'cancelled_by_service', 'reminder')
       OR (kind = 'moved' AND NEW.pickup_at IS DISTINCT FROM OLD.pickup_at) THEN
        INSERT INTO deliveries (event_id, sink) VALUES (event_id, 'rider');
    END IF;
    PERFORM pg_notify('vand_ride_events', event_id::text);
    RETURN NULL;
END;
$$;

