-- Late alerts are state (issue 31): raised when a stop's ETA runs a whole minute past its
-- promised window, updated as the ETA moves, cleared when the van recovers, the rider is served
-- (boarded, or set down), the ride ends or moves to another van, and raised again if it turns late
-- again. Before, an alert was inserted once and never changed: its ETA froze at the first report
-- and it stayed after the van caught up.
--
-- One rule for the minutes: vand_late_minutes is Lateness in the Swift code (whole minutes after
-- the window's end, rounded down, never negative); LatenessAgreementTests holds the two to one
-- table of cases. The event's `late_minutes` was rounded up before, so the same stop read one
-- minute more in the rider's inbox than on the board.
CREATE FUNCTION vand_late_minutes(eta timestamptz, window_end timestamptz) RETURNS integer
LANGUAGE sql IMMUTABLE STRICT AS $$
    SELECT GREATEST(0, floor(extract(epoch FROM eta - window_end) / 60))::integer
$$;

ALTER TABLE ride_alerts
    -- When the figure last changed (the ETA's whole minutes, the stop or the van).
    ADD COLUMN updated_at timestamptz,
    -- When the alert stopped holding, and why: 'recovered' (the ETA is back within a minute of the
    -- window), 'served' (the stop was done), 'moved' (the ride is on another van, whose own ETA
    -- raises it again if it is late there), 'ended' (the ride no longer holds a van).
    ADD COLUMN cleared_at timestamptz,
    ADD COLUMN cleared_reason text CHECK (cleared_reason IN ('recovered', 'served', 'moved', 'ended')),
    ADD CONSTRAINT ride_alerts_cleared_with_reason CHECK ((cleared_at IS NULL) = (cleared_reason IS NULL));
UPDATE ride_alerts SET updated_at = raised_at;
ALTER TABLE ride_alerts ALTER COLUMN updated_at SET NOT NULL, ALTER COLUMN updated_at SET DEFAULT now();
-- The open alerts of a van, which each ETA run of that van compares with what is late now.
CREATE INDEX ride_alerts_open_by_van ON ride_alerts (van_id) WHERE cleared_at IS NULL;

-- Raised (inserted, or an alert cleared before and open again): the ride event `late`, as before,
-- for the webhook, the log and the rider. Updated or cleared: no event (the rider is not told each
-- minute), only NOTIFY `vand_ride_late` (payload: the ride id), on which the console's feed
-- refreshes its alerts.
CREATE OR REPLACE FUNCTION vand_ride_alert_event() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    ride rides;
    event_id bigint;
BEGIN
    IF TG_OP = 'INSERT' OR (OLD.cleared_at IS NOT NULL AND NEW.cleared_at IS NULL) THEN
        SELECT * INTO ride FROM rides WHERE id = NEW.ride_id;
        event_id := vand_write_ride_event(ride, NEW.kind, NULL, jsonb_build_object('late', jsonb_build_object(
            'stop', NEW.stop,
            'eta', NEW.eta,
            'window_end', NEW.window_end,
            'late_minutes', vand_late_minutes(NEW.eta, NEW.window_end))));
        INSERT INTO deliveries (event_id, sink) VALUES (event_id, 'rider');
    END IF;
    PERFORM pg_notify('vand_ride_late', NEW.ride_id::text);
    RETURN NULL;
END;
$$;

DROP TRIGGER ride_alerts_event ON ride_alerts;
CREATE TRIGGER ride_alerts_event AFTER INSERT OR UPDATE ON ride_alerts
    FOR EACH ROW EXECUTE FUNCTION vand_ride_alert_event();
