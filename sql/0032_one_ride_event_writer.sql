-- One writer of ride events: the late alert (sql/0030) wrote its event with a copy of
-- vand_write_ride_event (sql/0029). It now calls that function and adds the rider's delivery
-- (she gets the new time), as the copy did. The event's payload, deliveries and notifications are
-- unchanged, except that its `van` is the ride's, as every ride event's is (the copy named the
-- alert's van: the same van unless the ride moved in the instant between the ETA and the alert).
CREATE OR REPLACE FUNCTION vand_ride_alert_event() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    ride rides;
    event_id bigint;
BEGIN
    SELECT * INTO ride FROM rides WHERE id = NEW.ride_id;
    event_id := vand_write_ride_event(ride, NEW.kind, NULL, jsonb_build_object('late', jsonb_build_object(
        'stop', NEW.stop,
        'eta', NEW.eta,
        'window_end', NEW.window_end,
        'late_minutes', ceil(extract(epoch FROM NEW.eta - NEW.window_end) / 60)::int)));
    INSERT INTO deliveries (event_id, sink) VALUES (event_id, 'rider');
    PERFORM pg_notify('vand_ride_late', NEW.ride_id::text);
    RETURN NULL;
END;
$$;
