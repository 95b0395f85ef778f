-- A ride lasts at most 12 hours from planned pickup to planned drop-off. The scheduler already
-- assumed it (VanDayRoutes.longestRide: a span's read takes rides picked up up to 12 hours before
-- it); now the database says so, and the route check's load query uses it: it read every ride
-- the van had ever been given before the ride checked (rides_van_pickup has no lower bound
-- without it), 0.134 ms per checked ride, ~3.5 checked rides per booking (docs/load.md).
ALTER TABLE rides ADD CONSTRAINT rides_longest_ride CHECK (estimated_dropoff_at <= pickup_at + interval '12 hours');

CREATE OR REPLACE FUNCTION vand_check_route() RETURNS trigger
LANGUAGE plpgsql AS $$
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
    -- summed in the order of the stops (a drop-off before a pickup at the same instant).
    -- A ride overlapping this one was picked up less than 12 hours before it (rides_longest_ride),
    -- so the van's rides are read from then on, not from the first it ever carried.
    SELECT coalesce(max(seats), 0), coalesce(max(wheelchairs), 0) INTO worst_seats, worst_wheelchairs FROM (
        SELECT at,
               sum(seats) OVER (ORDER BY at, seats, id ROWS UNBOUNDED PRECEDING) AS seats,
               sum(wheelchairs) OVER (ORDER BY at, seats, id ROWS UNBOUNDED PRECEDING) AS wheelchairs
        FROM (
            SELECT r.id, r.pickup_at AS at, ride_seats(r.needs_wheelchair, r.companions) AS seats,
                   ride_wheelchair_positions(r.needs_wheelchair) AS wheelchairs
            FROM rides r
            WHERE r.van_id = ride.van_id AND ride_holds_van(r.status)
              AND r.pickup_at > ride.pickup_at - interval '12 hours'
              AND r.pickup_at < ride.estimated_dropoff_at AND r.estimated_dropoff_at > ride.pickup_at
            UNION ALL
            SELECT r.id, r.estimated_dropoff_at, -ride_seats(r.needs_wheelchair, r.companions),
                   -ride_wheelchair_positions(r.needs_wheelchair)
            FROM rides r
            WHERE r.van_id = ride.van_id AND ride_holds_van(r.status)
              AND r.pickup_at > ride.pickup_at - interval '12 hours'
              AND r.pickup_at < ride.estimated_dropoff_at AND r.estimated_dropoff_at > ride.pickup_at
        ) stops
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
