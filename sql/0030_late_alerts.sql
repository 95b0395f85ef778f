-- Alerts raised on a ride from the road, once each (issue 25): `late` when a stop's ETA passes the
-- end of its promised window. Every vand node computes ETAs and may see the same ride turn late at
-- once; the primary key lets one insert win, and only that insert writes the ride event.
CREATE TABLE ride_alerts (
    ride_id    uuid NOT NULL REFERENCES rides (id) ON DELETE CASCADE,
    kind       text NOT NULL CHECK (kind IN ('late')),
    raised_at  timestamptz NOT NULL,
    -- The stop whose ETA passed its window: the pickup (a pickup promise) or the drop-off (arrive-by).
    stop       text NOT NULL CHECK (stop IN ('pickup', 'dropoff')),
    -- The ETA then, and the end of the promised window it passed.
    eta        timestamptz NOT NULL,
    window_end timestamptz NOT NULL,
    van_id     bigint REFERENCES vans (id) ON DELETE SET NULL,
    PRIMARY KEY (ride_id, kind),
    CONSTRAINT ride_alerts_late_after_window CHECK (eta > window_end)
);
CREATE INDEX ride_alerts_raised ON ride_alerts (raised_at);

-- An alert is a ride event of its kind, in the payload of version 1 with the alert's own object
-- (`late`: stop, eta, window_end, late_minutes), for the webhook, the log and the rider (who gets
-- the new time). NOTIFY `vand_ride_events` as every event does, and `vand_ride_late` (payload: the
-- ride id) for whoever re-plans the day from the road.
CREATE FUNCTION vand_ride_alert_event() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    ride rides;
    event_id bigint;
    pickup places;
    dropoff places;
BEGIN
    SELECT * INTO ride FROM rides WHERE id = NEW.ride_id;
    SELECT * INTO pickup FROM places WHERE id = ride.pickup_place_id;
    SELECT * INTO dropoff FROM places WHERE id = ride.dropoff_place_id;
    INSERT INTO ride_events (ride_id, net_id, kind, payload)
    VALUES (ride.id, ride.net_id, NEW.kind, jsonb_build_object(
        'version', 1,
        'ride', vand_ride_payload(ride),
        'previous', NULL,
        'pickup_place', pickup.name,
        'pickup_short', COALESCE(pickup.aliases[1], pickup.name, ride.pickup_address),
        'dropoff_place', dropoff.name,
        'dropoff_short', COALESCE(dropoff.aliases[1], dropoff.name, ride.dropoff_address),
        'van', (SELECT name FROM vans WHERE id = COALESCE(NEW.van_id, ride.van_id)),
        'actor', COALESCE(NULLIF(current_setting('vand.actor', true), ''), current_user),
        'late', jsonb_build_object(
            'stop', NEW.stop,
            'eta', NEW.eta,
            'window_end', NEW.window_end,
            'late_minutes', ceil(extract(epoch FROM NEW.eta - NEW.window_end) / 60)::int)
    ))
    RETURNING id INTO event_id;
    INSERT INTO deliveries (event_id, sink) VALUES (event_id, 'webhook'), (event_id, 'log'), (event_id, 'rider');
    PERFORM pg_notify('vand_ride_events', event_id::text);
    PERFORM pg_notify('vand_ride_late', NEW.ride_id::text);
    RETURN NULL;
END;
$$;

CREATE TRIGGER ride_alerts_event AFTER INSERT ON ride_alerts
    FOR EACH ROW EXECUTE FUNCTION vand_ride_alert_event();

-- The reminder from the road: once the van is on the road, the 15-minute reminder fires from its
-- ETA at the pickup rather than the plan, and the rider's message gives that ETA. It is the ride
-- payload's `reminder_eta` (null for a reminder from the plan); a field added keeps version 1.
ALTER TABLE rides ADD COLUMN reminder_eta timestamptz;

-- rides_events fires on an UPDATE of every column but the three a re-plan writes (sql/0024): the
-- new column too.
DO $$
DECLARE
    others text;
BEGIN
    SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) INTO others
    FROM pg_attribute
    WHERE attrelid = 'rides'::regclass AND attnum > 0 AND NOT attisdropped
      AND attname NOT IN ('pickup_at', 'estimated_dropoff_at', 'updated_at');
    DROP TRIGGER rides_events ON rides;
    EXECUTE format('CREATE TRIGGER rides_events AFTER INSERT OR DELETE OR UPDATE OF %s ON rides '
                   'FOR EACH ROW EXECUTE FUNCTION vand_ride_event()', others);
END;
$$;

CREATE OR REPLACE FUNCTION vand_ride_payload(ride rides) RETURNS jsonb
LANGUAGE sql STABLE AS $$
    SELECT jsonb_build_object(
        'id', ($1).id,
        'ref', ($1).ref,
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
        'reminder_eta', ($1).reminder_eta,
        'created_at', ($1).created_at,
        'updated_at', ($1).updated_at,
        'promise', ($1).promise,
        'window_start', ($1).window_start,
        'window_end', ($1).window_end,
        'max_ride_seconds', ($1).max_ride_seconds)
$$;
