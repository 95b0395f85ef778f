-- Tells every vand what a rider's ride list depends on has changed, so a list answered from
-- memory (RiderReadCache, docs/load.md) is dropped: NOTIFY vand_rider_changes with the rider's
-- net ID, or '*' for every rider. Triggers, not the writers, so no writer can forget (vand, the
-- background planner, vanadmin, psql alike). NOTIFY is sent at commit and a payload sent twice in
-- one transaction is sent once, so a booking that re-plans rides of one rider costs one message.

CREATE FUNCTION vand_notify_rider_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        PERFORM pg_notify('vand_rider_changes', OLD.net_id);
    END IF;
    IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.net_id IS DISTINCT FROM OLD.net_id) THEN
        PERFORM pg_notify('vand_rider_changes', NEW.net_id);
    END IF;
    RETURN NULL;
END;
$$;

-- Any change to a ride: a booking, a re-plan, a decision, a cancellation, a deletion.
CREATE TRIGGER rides_rider_changes AFTER INSERT OR UPDATE OR DELETE ON rides
    FOR EACH ROW EXECUTE FUNCTION vand_notify_rider_change();

-- A session ended (logout, password change, expiry tidied) or cut short. A session sliding
-- forward (every minute of use) is not news: an answer kept from before it is still right.
CREATE TRIGGER sessions_rider_changes AFTER DELETE ON sessions
    FOR EACH ROW EXECUTE FUNCTION vand_notify_rider_change();
CREATE TRIGGER sessions_rider_changes_shortened AFTER UPDATE ON sessions
    FOR EACH ROW WHEN (NEW.expires_at < OLD.expires_at OR NEW.net_id IS DISTINCT FROM OLD.net_id
                       OR NEW.token_sha256 IS DISTINCT FROM OLD.token_sha256)
    EXECUTE FUNCTION vand_notify_rider_change();

-- The account: disabled, a temporary password set, deleted.
CREATE TRIGGER riders_rider_changes AFTER UPDATE OR DELETE ON riders
    FOR EACH ROW EXECUTE FUNCTION vand_notify_rider_change();

-- A ride shows its places' and van's names: a rename changes every rider's list.
CREATE FUNCTION vand_notify_every_rider() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('vand_rider_changes', '*');
    RETURN NULL;
END;
$$;
CREATE TRIGGER places_rider_changes AFTER UPDATE OR DELETE OR TRUNCATE ON places
    FOR EACH STATEMENT EXECUTE FUNCTION vand_notify_every_rider();
CREATE TRIGGER vans_rider_changes AFTER UPDATE OR DELETE OR TRUNCATE ON vans
    FOR EACH STATEMENT EXECUTE FUNCTION vand_notify_every_rider();
CREATE TRIGGER rides_truncated_rider_changes AFTER TRUNCATE ON rides
    FOR EACH STATEMENT EXECUTE FUNCTION vand_notify_every_rider();
