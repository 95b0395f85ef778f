-- The trigger loop: every change to a ride becomes a ride_events row (written by
-- triggers, so HTTP, vanadmin and plain psql all produce events), with one
-- deliveries row per sink, and a NOTIFY on 'vand_ride_events' so loops wake at once.
--
-- Sinks: 'webhook' (the dispatcher's signed JSON webhook), 'log' (one log line per
-- event) and, for what a rider must hear about, 'rider' (their inbox).
-- 'webhook' rows are always written: a loop with no VAND_WEBHOOK_URL marks them
-- delivered with last_error 'not sent: VAND_WEBHOOK_URL is not set'.

-- Who the event is about (the rider) and a short, human name of the pickup place.
ALTER TABLE ride_events ADD COLUMN net_id text;
CREATE INDEX ride_events_created ON ride_events (created_at);

-- A webhook delivery claimed by a loop is leased: if that loop dies, the lease
-- runs out and another loop takes the delivery over.
ALTER TABLE deliveries ADD COLUMN claimed_by text;
ALTER TABLE deliveries ADD COLUMN claimed_until timestamptz;
-- New deliveries are due at once, whatever clock the loop runs on.
ALTER TABLE deliveries ALTER COLUMN next_attempt_at SET DEFAULT '-infinity';
ALTER TABLE deliveries ADD CONSTRAINT deliveries_sink CHECK (sink IN ('webhook', 'rider', 'log'));
CREATE INDEX deliveries_parked ON deliveries (parked_at) WHERE parked_at IS NOT NULL;

-- The rider's inbox. One row per event at most (the 'rider' sink writes it).
CREATE TABLE notifications (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    net_id     text NOT NULL REFERENCES riders (net_id) ON DELETE CASCADE,
    event_id   bigint UNIQUE REFERENCES ride_events (id) ON DELETE SET NULL,
    ride_id    uuid,
    kind       text NOT NULL,
    message    text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notifications_rider ON notifications (net_id, id);

-- What changed, in one word.
CREATE FUNCTION vand_ride_event_kind(op text, old_ride rides, new_ride rides) RETURNS text
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
    IF new_ride.pickup_at IS DISTINCT FROM old_ride.pickup_at OR new_ride.van_id IS DISTINCT FROM old_ride.van_id THEN
        RETURN 'moved';
    END IF;
    RETURN 'updated';
END;
$$;

-- A ride moved to another time is reminded again for the new time.
CREATE FUNCTION vand_ride_rearm_reminder() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.pickup_at IS DISTINCT FROM OLD.pickup_at AND NEW.reminded_at IS NOT DISTINCT FROM OLD.reminded_at THEN
        NEW.reminded_at := NULL;
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER rides_rearm_reminder BEFORE UPDATE OF pickup_at ON rides
    FOR EACH ROW EXECUTE FUNCTION vand_ride_rearm_reminder();

-- One event per changed row: the ride as it is now (as it was, for a delete),
-- what it was before, the places' names, and who changed it.
CREATE FUNCTION vand_ride_event() RETURNS trigger
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
        'ride', to_jsonb(ride),
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

CREATE TRIGGER rides_events AFTER INSERT OR UPDATE OR DELETE ON rides
    FOR EACH ROW EXECUTE FUNCTION vand_ride_event();

-- A new inbox row wakes the rider's open streams (payload: the rider's net ID).
CREATE FUNCTION vand_notification_notify() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('vand_notifications', NEW.net_id);
    RETURN NULL;
END;
$$;

CREATE TRIGGER notifications_notify AFTER INSERT ON notifications
    FOR EACH ROW EXECUTE FUNCTION vand_notification_notify();
