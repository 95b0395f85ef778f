-- The rider hears of her no-show: a `no_show` ride event (the driver's tap, written by the rides
-- trigger through vand_write_ride_event) now gets a 'rider' delivery, as `arrived` at her pickup
-- does, so her inbox does not end at "The van is here". The function is vand_write_ride_event of
-- sql/0029 with 'no_show' added to the kinds the rider hears of; nothing else changed.
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
    -- The rider hears of decisions, re-timings, cancellations by the service, reminders, the
    -- van arriving at her pickup, and her no-show.
    IF kind IN ('approved', 'rejected', 'cancelled_by_service', 'reminder', 'moved', 'no_show')
       OR (kind = 'arrived' AND extra->'road'->>'stop' = 'pickup') THEN
        INSERT INTO deliveries (event_id, sink) VALUES (event_id, 'rider');
    END IF;
    PERFORM pg_notify('vand_ride_events', event_id::text);
    RETURN event_id;
END;
$$;
