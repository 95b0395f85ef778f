-- The route check and one van's reads find the van's rides aboard in a span by an index that has
-- the van first and both ends of the ride: rides_van_pickup (van_id, pickup_at) had only the
-- start, so a generic plan read rides_holding_van (every van's rides over 12 hours, ~270 rows)
-- and dropped the other vans' (~0.35 ms for one van's 23 rides; 0.05 ms with this index).
-- The check reads each ride once for both of its stops, where it read the van's rides twice.
CREATE INDEX rides_van_aboard ON rides (van_id, pickup_at, estimated_dropoff_at) WHERE ride_holds_van(status);
DROP INDEX rides_van_pickup;

-- A plan the check caches is made on its first use in a connection: on a young rides table (a
-- fresh install, the first minutes of the day's bookings) a scan of the whole table is cheapest,
-- and that plan was kept as the table grew, until an ANALYZE happened to invalidate it. The
-- check looks rides up by id and by van, so it keeps to the indexes (rides_pkey,
-- rides_van_aboard) whatever the table's size was when it planned. A later CREATE OR REPLACE
-- must repeat these SET clauses: it drops the ones it does not name (BookingServiceTests checks).
CREATE OR REPLACE FUNCTION vand_check_route() RETURNS trigger
LANGUAGE plpgsql
SET enable_seqscan = off
SET enable_bitmapscan = off
AS $$
DECLARE
    ride rides;
    van vans;
    worst_seats integer;
    worst_wheelchairs integer;
BEGIN
    SELECT * INTO ride FROM rides WHERE id = NEW.id;  -- the row as it is at commit
    IF NOT FOUND OR NOT ride_holds_van(ride.status) OR ride.van_id IS NULL THEN
        RETURN NULL;
    END IF;
    IF ride.promise = 'pickup' AND NOT (ride.pickup_at BETWEEN ride.window_start AND ride.window_end) THEN
        RAISE EXCEPTION 'ride % is planned for pickup at %, outside its promised window % to %',
            ride.id, ride.pickup_at, ride.window_start, ride.window_end
            USING ERRCODE = 'check_violation', CONSTRAINT = 'rides_route_window';
    END IF;
    IF ride.promise = 'arrive_by' AND NOT (ride.estimated_dropoff_at BETWEEN ride.window_start AND ride.window_end) THEN
        RAISE EXCEPTION 'ride % is planned to arrive at %, outside its promised window % to %',
            ride.id, ride.estimated_dropoff_at, ride.window_start, ride.window_end
            USING ERRCODE = 'check_violation', CONSTRAINT = 'rides_route_window';
    END IF;
    IF extract(epoch FROM ride.estimated_dropoff_at - ride.pickup_at) > ride.max_ride_seconds THEN
        RAISE EXCEPTION 'ride % is planned to last % s, more than its limit of % s',
            ride.id, extract(epoch FROM ride.estimated_dropoff_at - ride.pickup_at), ride.max_ride_seconds
            USING ERRCODE = 'check_violation', CONSTRAINT = 'rides_route_ride_time';
    END IF;
    SELECT * INTO van FROM vans WHERE id = ride.van_id;
    -- The load at each stop while this ride is aboard: every ride on the van overlapping it,
    -- each read once for both of its stops, summed in the order of the stops (a drop-off before a
    -- pickup at the same instant). A ride overlapping this one was picked up less than 12 hours
    -- before it (rides_longest_ride); rides_van_aboard finds exactly the van's overlapping rides.
    SELECT coalesce(max(seats), 0), coalesce(max(wheelchairs), 0) INTO worst_seats, worst_wheelchairs FROM (
        SELECT s.at,
               sum(s.seats) OVER (ORDER BY s.at, s.seats, r.id ROWS UNBOUNDED PRECEDING) AS seats,
               sum(s.wheelchairs) OVER (ORDER BY s.at, s.seats, r.id ROWS UNBOUNDED PRECEDING) AS wheelchairs
        FROM rides r,
             LATERAL (VALUES (r.pickup_at, ride_seats(r.needs_wheelchair, r.companions), ride_wheelchair_positions(r.needs_wheelchair)),
                             (r.estimated_dropoff_at, -ride_seats(r.needs_wheelchair, r.companions), -ride_wheelchair_positions(r.needs_wheelchair))
                     ) s(at, seats, wheelchairs)
        WHERE r.van_id = ride.van_id AND ride_holds_van(r.status)
          AND r.pickup_at > ride.pickup_at - interval '12 hours'
          AND r.pickup_at < ride.estimated_dropoff_at AND r.estimated_dropoff_at > ride.pickup_at
    ) loads
    WHERE at >= ride.pickup_at AND at < ride.estimated_dropoff_at;
    IF worst_seats > van.seats OR worst_wheelchairs > van.wheelchair_positions THEN
        RAISE EXCEPTION 'van % would carry % riders and % wheelchairs at once with ride %; it has % seats and % wheelchair positions',
            van.name, worst_seats, worst_wheelchairs, ride.id, van.seats, van.wheelchair_positions
            USING ERRCODE = 'check_violation', CONSTRAINT = 'rides_route_capacity';
    END IF;
    RETURN NULL;
END;
$$;
