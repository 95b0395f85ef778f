-- "Holds a van" is defined once, here: the statuses in which a ride keeps its place on a
-- van's schedule. Swift's RideStatus.holdsVan is checked against this function by a test
-- (RideStatusSQLTests), and every query, index and constraint says ride_holds_van(status).
-- A plain SQL function marked IMMUTABLE is inlined by the planner, so the partial indexes
-- below still match the queries that use it.
CREATE FUNCTION ride_holds_van(status text) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT status IN ('pending', 'approved') $$;

ALTER TABLE rides DROP CONSTRAINT rides_no_double_booking;
ALTER TABLE rides ADD CONSTRAINT rides_no_double_booking
    EXCLUDE USING gist (van_id WITH =, tstzrange(pickup_at, estimated_dropoff_at, '[)') WITH &&)
    WHERE (ride_holds_van(status) AND van_id IS NOT NULL);

DROP INDEX rides_holding_van;
CREATE INDEX rides_holding_van ON rides (pickup_at) WHERE ride_holds_van(status) AND van_id IS NOT NULL;
DROP INDEX rides_van_pickup;
CREATE INDEX rides_van_pickup ON rides (van_id, pickup_at) WHERE ride_holds_van(status);
