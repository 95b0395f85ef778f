-- pgbench: the statements vand runs for one POST /v1/rides on shared routes (captured with
-- log_statement=all on 2026-11-24), with the same shapes and parameters. Run with -M prepared:
-- vand runs each of these as a named prepared statement too. What pgbench cannot do is plan: it
-- takes a random van and puts the ride at its asked time with nothing re-planned, and it skips
-- the read of the chosen van's day-long route that a ride near the edge of the first read makes.
-- Variables from scripts/bench-load: first_epoch (the first pickup time's epoch), digest (the
-- bench rider's session token SHA-256, hex), net_id. The trigger loop's delivery work that
-- follows in vand (log/webhook deliveries) is not part of this script.
-- Pickup minutes after the ones vand's bookings used, spread over most of a year: vans now carry several riders, and a
-- statement that ignores the routes would overload a van vand has filled (the route trigger refuses). vand's 11,000
-- pickup times are weekday minutes, ~15,400 minutes of the calendar from first_epoch: start 30,000 minutes on (an
-- offset of 11,000 put pgbench's rides on vand's full vans, and a ninth rider on an 8-seat van aborted the run).
\set t :first_epoch + 60 * (30000 + random(0, 400000))
-- The van-days a change at :t locks: local (UTC-5) dates within 2 hours of it.
\set d1 (:t - 18000 - 7200) / 86400
\set d2 (:t - 18000 + 7200) / 86400
\set van random(1, 30)
WITH live AS (
    SELECT s.token_sha256, s.net_id, s.expires_at, s.last_seen_at, r.must_change_password, r.temp_password_expires_at
    FROM sessions s JOIN riders r ON r.net_id = s.net_id
    WHERE s.token_sha256 = decode(:digest, 'hex') AND s.expires_at > now() AND NOT r.disabled
      AND (NOT r.must_change_password OR r.temp_password_expires_at IS NULL OR r.temp_password_expires_at > now())
), touched AS (
    UPDATE sessions s
    SET last_seen_at = now(),
        expires_at = CASE WHEN live.must_change_password THEN LEAST(now() + interval '30 days', live.temp_password_expires_at) ELSE now() + interval '30 days' END
    FROM live
    WHERE s.token_sha256 = live.token_sha256 AND live.last_seen_at <= now() - interval '60 seconds'
    RETURNING s.expires_at, s.last_seen_at
), session AS (
    SELECT live.net_id, live.must_change_password, COALESCE((SELECT expires_at FROM touched), live.expires_at) AS expires_at,
           COALESCE((SELECT last_seen_at FROM touched), live.last_seen_at) AS last_seen_at
    FROM live
)
SELECT net_id, must_change_password, expires_at, last_seen_at FROM session;
SELECT net_id, name, email, note, valid_until, added_by, added_at FROM whitelist WHERE net_id = :net_id;
SELECT id, name, array_to_json(aliases)::text, lat, lon FROM places ORDER BY name;
BEGIN;
SELECT id, name, seats, wheelchair_positions, active FROM vans WHERE active OR false ORDER BY active DESC, name;
SELECT (SELECT value FROM settings WHERE key = 'scheduler') AS settings,
       (SELECT coalesce(json_agg(to_char(day, 'YYYY-MM-DD')), '[]')
        FROM closures WHERE day BETWEEN current_date AND current_date + 5) AS closures,
       -- chr(58) is ':' — pgbench would take a literal colon-name for one of its variables.
       (SELECT coalesce(json_agg(json_build_object('weekday', weekday, 'start', to_char(start_time, 'HH24' || chr(58) || 'MI'),
                                                   'end', to_char(end_time, 'HH24' || chr(58) || 'MI')) ORDER BY weekday, start_time), '[]')
        FROM service_hours) AS hours;
SELECT set_config('vand.actor', :net_id, true);
-- The versions of the van-days around the first read (±5 h), then the rides of every van in it.
SELECT van_id, day - DATE '1970-01-01', version FROM van_days
WHERE day BETWEEN to_timestamp(:t - 18000)::date - 1 AND to_timestamp(:t + 18000)::date + 1;
SELECT id, van_id, pickup_at, estimated_dropoff_at, pickup_lat, pickup_lon, dropoff_lat, dropoff_lon,
       needs_wheelchair, companions, promise, window_start, window_end, max_ride_seconds
FROM rides
WHERE ride_holds_van(status) AND van_id IS NOT NULL
  AND pickup_at >= to_timestamp(:t - 18000 - 43200) AND pickup_at < to_timestamp(:t + 18000)
  AND estimated_dropoff_at > to_timestamp(:t - 18000);
SAVEPOINT booking;
INSERT INTO van_days (van_id, day, version)
SELECT v, DATE '1970-01-01' + d::integer, 1
FROM generate_series(:d1::integer, :d2::integer) d CROSS JOIN unnest(ARRAY[:van::bigint]) v
ORDER BY d, v
ON CONFLICT (van_id, day) DO UPDATE SET version = van_days.version + 1
RETURNING van_id, day - DATE '1970-01-01', version;
WITH replanned AS (
    UPDATE rides SET pickup_at = ('{}'::timestamptz[])[array_position('{}'::uuid[], id)],
                     estimated_dropoff_at = ('{}'::timestamptz[])[array_position('{}'::uuid[], id)],
                     updated_at = now()
    WHERE id = ANY('{}'::uuid[])
), r AS (
    INSERT INTO rides (id, net_id, kind,
        pickup_address, pickup_lat, pickup_lon, pickup_place_id,
        dropoff_address, dropoff_lat, dropoff_lon, dropoff_place_id,
        requested_at, pickup_at, estimated_dropoff_at, needs_wheelchair, companions, note, status, van_id, series_id,
        promise, window_start, window_end, max_ride_seconds)
    -- vand makes time-ordered (version 7) ride ids; this is the same layout: Unix milliseconds first.
    VALUES (encode(overlay(uuid_send(gen_random_uuid()) PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3) FROM 1 FOR 6), 'hex')::uuid,
        :net_id, 'scheduled',
        NULL, 41.31633, -72.92241, 4,
        NULL, 41.30917, -72.93139, 5,
        now(), to_timestamp(:t), to_timestamp(:t + 436), false, 0, NULL, 'pending', :van, NULL,
        'pickup', to_timestamp(:t), to_timestamp(:t + 900), 1336)
    RETURNING *
)
SELECT r.id, r.net_id, r.kind, r.pickup_address, r.pickup_lat, r.pickup_lon, r.pickup_place_id, pp.name,
       r.dropoff_address, r.dropoff_lat, r.dropoff_lon, r.dropoff_place_id, dp.name,
       r.requested_at, r.pickup_at, r.estimated_dropoff_at, r.needs_wheelchair, r.companions, r.status,
       r.van_id, r.note, r.reason, r.series_id, r.created_at, r.updated_at, v.name,
       r.promise, r.window_start, r.window_end, r.max_ride_seconds, r.ref
FROM r
LEFT JOIN places pp ON pp.id = r.pickup_place_id
LEFT JOIN places dp ON dp.id = r.dropoff_place_id
LEFT JOIN vans v ON v.id = r.van_id;
SET CONSTRAINTS rides_route_check IMMEDIATE;
SET CONSTRAINTS rides_route_check DEFERRED;
RELEASE SAVEPOINT booking;
COMMIT;
