-- One writer of ride events: the late alert (sql/0030) wrote its event with a copy of
-- vand_write_ride_event (sql/0029). It now calls that function, which also gives the rider her
-- `late` message (the new time), as the copy did. The event is unchanged: the same payload, the
-- same three deliveries, the same notifications.
CREATE OR REPLACE FUNCTION vand_write_ride_event(ride rides, kind text, previous jsonb, extra jsonb) RETURNS bigint
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
    -- The rider hears of decisions, re-timings, cancellations by the service, reminders, her
    -- ride running late (with the new time), and the van arriving at her pickup.
    IF kind IN ('approved', 'rejected', 'cancelled_by_service', 'reminder', 'moved', 'late')
       OR (kind = 'arrived' AND extra->'road'->>'stop' = 'pickup') THEN
        INSERT INTO deliveries (event_id, sink) VALUES (event_id, 'rider');
    END IF;
    PERFORM pg_notify('vand_ride_events', event_id::text);
    RETURN event_id;
END;
$$;

-- The event names the ride's van, as every ride event does (the copy named the alert's van, the
-- same van unless the ride moved in the instant between the ETA and the alert).
CREATE OR REPLACE FUNCTION vand_ride_alert_event() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    ride rides;
BEGIN
    SELECT * INTO ride FROM rides WHERE id = NEW.ride_id;
    PERFORM vand_write_ride_event(ride, NEW.kind, NULL, jsonb_build_object('late', jsonb_build_object(
        'stop', NEW.stop,
        'eta', NEW.eta,
        'window_end', NEW.window_end,
        'late_minutes', ceil(extract(epoch FROM NEW.eta - NEW.window_end) / 60)::int)));
    PERFORM pg_notify('vand_ride_late', NEW.ride_id::text);
    RETURN NULL;
END;
$$;
