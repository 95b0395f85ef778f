-- A ride under way stays on its van. Once a driver's tap stands at a ride's pickup (arrived,
-- boarded, no-show; not undone), the van of that driver's shift is at the curb or carries the
-- rider: moving the ride to another van would take it off that driver's run while the rider
-- waits for, or sits in, that van, and hand the tap to a van that was never there. So whoever
-- writes (the dispatcher's move, the planner, plain SQL), a change of `van_id` is refused while
-- such a tap stands; undoing the tap (the driver's Undo) frees the ride again.
-- Taps and van changes both lock the ride's row first (TapService, DispatchService, the
-- planner's UPDATE), so the check below sees every tap committed before the change.
CREATE FUNCTION vand_ride_keeps_van_under_way() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    tap stop_taps;
BEGIN
    SELECT * INTO tap FROM stop_taps
    WHERE ride_id = NEW.id AND stop = 'pickup' AND undone_at IS NULL
    ORDER BY at DESC, id DESC LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'ride % is under way (% at its pickup at %): it stays on its van',
            NEW.id, tap.action, tap.at
            USING ERRCODE = 'check_violation', CONSTRAINT = 'rides_under_way_keeps_van',
                  HINT = 'Undo the tap at the pickup first, or cancel the ride.';
    END IF;
    RETURN NEW;
END;
$$;
CREATE TRIGGER rides_under_way_keeps_van BEFORE UPDATE OF van_id ON rides
    FOR EACH ROW WHEN (OLD.van_id IS DISTINCT FROM NEW.van_id)
    EXECUTE FUNCTION vand_ride_keeps_van_under_way();
