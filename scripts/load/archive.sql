-- psql script: adds :n past rides to rides (run by scripts/bench-load, archive phase), with
-- the ride_events, deliveries and notifications they left behind, all long delivered.
-- Variables: n (rides to add), event_pct (0–100: the share of those rides that also get
-- their last event; scripts/bench-load says what it used and why).
-- Needs the archive riders arch0001 … arch3000 (scripts/bench-load inserts them first).
--
-- The session runs as a replica: no triggers fire, neither vand's (one ride_events row,
-- deliveries and a NOTIFY per ride, which an archive delivered long ago) nor the foreign
-- key checks. The rows are valid by construction instead: riders, places and vans are
-- read from their tables, every CHECK holds, and events/deliveries/notifications point at
-- the rows inserted with them.
SET session_replication_role = replica;
SET synchronous_commit = off;
SET work_mem = '64MB';
CREATE TEMP TABLE p AS
SELECT array_agg(id ORDER BY id) ids, array_agg(lat ORDER BY id) lats, array_agg(lon ORDER BY id) lons,
       array_agg(name ORDER BY id) names, array_agg(COALESCE(aliases[1], name) ORDER BY id) shorts, count(*)::int n
FROM places;
CREATE TEMP TABLE v AS SELECT array_agg(id ORDER BY id) ids, array_agg(name ORDER BY id) names, count(*)::int n FROM vans;

WITH ins AS (
    -- Pickups spread evenly over the 3 years up to an hour ago (each batch inserted in pickup
    -- order, as a table that grows by the day), booked 30 minutes to a week ahead, trips of
    -- 5–25 minutes.
    -- Riders: 3,000 net IDs, mildly skewed (the busiest has ~2× the average).
    -- Statuses: 75 % completed, 10 % cancelled (4 in 5 by the rider), 5 % no-show,
    -- 10 % rejected (no van); a reminder went out before every completed or no-show ride.
    INSERT INTO rides (id, net_id, kind, pickup_lat, pickup_lon, pickup_place_id, dropoff_lat, dropoff_lon, dropoff_place_id,
        requested_at, pickup_at, estimated_dropoff_at, needs_wheelchair, companions, status, van_id, decided_by, decided_at, reason,
        created_at, updated_at, reminded_at, cancelled_by, cancelled_late, cancelled_at,
        promise, window_start, window_end, max_ride_seconds, ref)
    SELECT gen_random_uuid(), 'arch' || lpad((1 + floor(2999.999 * (r.u + r.u * r.u) / 2))::int::text, 4, '0'),
        CASE WHEN r.k < 0.1 THEN 'on_demand' ELSE 'scheduled' END,
        p.lats[r.pp], p.lons[r.pp], p.ids[r.pp], p.lats[r.dp], p.lons[r.dp], p.ids[r.dp],
        r.requested, r.pickup, r.pickup + r.trip, r.wc, r.comp, r.status,
        CASE WHEN r.status <> 'rejected' THEN v.ids[r.van] END,
        'dispatch', r.requested + interval '7 minutes',
        CASE WHEN r.status = 'rejected' THEN 'no van free at that time' END,
        r.requested, CASE WHEN r.status = 'cancelled' THEN r.cancelled ELSE r.pickup + r.trip END,
        CASE WHEN r.status IN ('completed', 'no_show') THEN r.pickup - interval '15 minutes' END,
        CASE WHEN r.status = 'cancelled' THEN r.cby END,
        r.status = 'cancelled' AND r.cby = 'rider' AND r.pickup - r.cancelled <= interval '60 minutes',
        CASE WHEN r.status = 'cancelled' THEN r.cancelled END,
        -- The promise vand_ride_default_promise() (sql/0010) gives a ride written without one
        -- (a replica session fires no trigger): picked up within 15 minutes of the planned time.
        'pickup', r.pickup, r.pickup + interval '15 minutes',
        greatest(2 * extract(epoch FROM r.trip), extract(epoch FROM r.trip) + 900)::integer,
        -- A reference of its own: consecutive numbers from a random start, in the ref alphabet
        -- (vand_new_ride_ref() takes an advisory lock per ride: too many for one transaction).
        (SELECT string_agg(substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', (((r.ref_no >> (5 * d)) & 31) + 1)::int, 1)
                           || CASE WHEN d = 3 THEN '-' ELSE '' END, '' ORDER BY d DESC)
         FROM generate_series(0, 5) d)
    FROM (
        SELECT s.*, (ref0.n + s.g) % 1073741824 AS ref_no, 1 + (s.pp0 + 1 + s.dp0) % p.n AS pp, 1 + s.pp0 AS dp, s.pickup - s.ahead AS requested,
               s.pickup - s.ahead * (1 - s.late) * 0.9 AS cancelled
        FROM (
            SELECT g, random() u, random() k,
                floor(random() * (SELECT n FROM p))::int pp0, floor(random() * ((SELECT n FROM p) - 1))::int dp0,
                date_trunc('minute', now() - interval '1 hour' - interval '3 years' * (1 - (g - 1 + random()) / :n)) pickup,
                interval '1 minute' * (30 + floor(random() * 10050)) ahead,
                interval '1 second' * (300 + floor(random() * 1200)) trip,
                random() < 0.05 wc, (random() < 0.15)::int + (random() < 0.05)::int comp,
                (ARRAY['completed', 'completed', 'completed', 'completed', 'completed', 'completed', 'completed', 'completed',
                       'completed', 'completed', 'completed', 'completed', 'completed', 'completed', 'completed',
                       'cancelled', 'cancelled', 'no_show', 'rejected', 'rejected'])[1 + floor(random() * 20)::int] status,
                1 + floor(random() * (SELECT n FROM v))::int van,
                CASE WHEN random() < 0.8 THEN 'rider' ELSE 'service' END cby, random() late
            FROM generate_series(1, :n) g
        ) s, p, (SELECT floor(random() * 1073741824)::bigint AS n) ref0
    ) r, p, v
    -- A reference another batch (or a booking) took already: that ride is left out.
    ON CONFLICT DO NOTHING
    RETURNING *
), ev AS (
    -- The ride's last event, as vand_ride_event() (sql/0005_events.sql) would have written it.
    INSERT INTO ride_events (ride_id, net_id, kind, payload, created_at)
    SELECT ins.id, ins.net_id, k.kind, jsonb_build_object(
            'ride', to_jsonb(ins),
            'previous', jsonb_build_object('status', k.previous, 'pickup_at', ins.pickup_at, 'van_id', ins.van_id),
            'pickup_place', p.names[array_position(p.ids, ins.pickup_place_id)],
            'pickup_short', p.shorts[array_position(p.ids, ins.pickup_place_id)],
            'dropoff_place', p.names[array_position(p.ids, ins.dropoff_place_id)],
            'dropoff_short', p.shorts[array_position(p.ids, ins.dropoff_place_id)],
            'van', v.names[array_position(v.ids, ins.van_id)],
            'actor', CASE WHEN k.kind = 'cancelled_by_rider' THEN ins.net_id ELSE 'dispatch' END),
        ins.updated_at
    FROM ins, p, v,
        LATERAL (SELECT CASE ins.status WHEN 'cancelled' THEN 'cancelled_by_' || ins.cancelled_by ELSE ins.status END AS kind,
                        CASE WHEN ins.status = 'rejected' THEN 'pending' ELSE 'approved' END AS previous) k
    -- event_pct % of the rides, picked by a random byte of their id.
    WHERE get_byte(uuid_send(ins.id), 15) < :event_pct * 256 / 100.0
    RETURNING id, ride_id, net_id, kind, created_at
), dl AS (
    -- Webhook and log deliveries, and the rider's for what a rider hears of; all delivered.
    INSERT INTO deliveries (event_id, sink, attempts, next_attempt_at, delivered_at)
    SELECT ev.id, s.sink, 1, '-infinity', ev.created_at + interval '2 milliseconds'
    FROM ev, (VALUES ('webhook'), ('log'), ('rider')) s (sink)
    WHERE s.sink <> 'rider' OR ev.kind IN ('rejected', 'cancelled_by_service')
)
INSERT INTO notifications (net_id, event_id, ride_id, kind, message, created_at)
SELECT ev.net_id, ev.id, ev.ride_id, ev.kind,
       CASE ev.kind WHEN 'rejected' THEN 'Your ride request was not approved.' ELSE 'Your ride was cancelled by the service.' END,
       ev.created_at + interval '2 milliseconds'
FROM ev WHERE ev.kind IN ('rejected', 'cancelled_by_service');
