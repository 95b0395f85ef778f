-- The rider is told when what she was told no longer holds (issue 31), in two cases:
-- - a tap she heard of is undone: a no-show undone (by the driver within her undo window, or by
--   the dispatcher's correction, `vanadmin taps correct`) or the van's arrival at her pickup
--   undone gets a 'rider' delivery of its `tap_undone` event, so her inbox does not keep saying
--   "marked a no-show" or "the van is here" after it was taken back;
-- - her ride is put on another van after her reminder went out: re-planning from the road, or a
--   dispatcher, may move a ride to another van minutes before the pickup, and she looks for the
--   van by its name. The `reassigned` event of that change (the van alone changed, sql/0010) gets
--   a 'rider' delivery: "Your ride from SCL at 3:00 PM is now on Van 2.". Earlier van changes are
--   not news to her (the reminder is the first time a van is hers).
-- The function is vand_write_ride_event of sql/0034 with those conditions added; nothing else changed.
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
    -- van arriving at her pickup, her no-show, the undoing of either of those two taps (the
    -- driver's undo or the dispatcher's correction): what she was told no longer holds; and her
    -- ride put on another van once her reminder went out (she is looking for it by its name).
    IF kind IN ('approved', 'rejected', 'cancelled_by_service', 'reminder', 'moved', 'no_show')
       OR (kind = 'reassigned' AND ride.status = 'approved' AND ride.reminded_at IS NOT NULL AND ride.van_id IS NOT NULL)
       OR (kind = 'arrived' AND extra->'road'->>'stop' = 'pickup')
       OR (kind = 'tap_undone' AND (extra->'road'->>'action' = 'no_show'
                                    OR (extra->'road'->>'action' = 'arrived' AND extra->'road'->>'stop' = 'pickup'))) THEN
        INSERT INTO deliveries (event_id, sink) VALUES (event_id, 'rider');
    END IF;
    PERFORM pg_notify('vand_ride_events', event_id::text);
    RETURN event_id;
END;
$$;
