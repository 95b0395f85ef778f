-- pgbench: the statements vand runs for one POST /v1/rides (captured with log_statement=all),
-- with the same shapes and parameters. Run with -M extended (vand binds parameters too).
-- Variables from scripts/bench-load: first_epoch (the first pickup time's epoch), digest (the
-- bench rider's session token SHA-256, hex), net_id. The trigger loop's delivery work that
-- follows in vand (log/webhook deliveries) is not part of this script.
-- Pickup minutes after the ones vand's bookings used, spread over most of a year: vans now carry several riders, and a
-- statement that ignores the routes would overload a van vand has filled (the route trigger refuses).
\set t :first_epoch + 60 * (11000 + random(0, 400000))
\set d1 (:t - 21600) / 86400
\set d2 (:t + 21600) / 86400
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
    RETURNING s.expires_at
)
SELECT live.net_id, live.must_change_password, COALESCE((SELECT expires_at FROM touched), live.expires_at) AS expires_at
FROM live;
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
SELECT pg_advisory_xact_lock(1986096740, day) FROM unnest(ARRAY[:d1, :d2]::int[]) AS day;
SELECT id, van_id, pickup_at, estimated_dropoff_at, pickup_lat, pickup_lon, dropoff_lat, dropoff_lon
FROM rides
WHERE status IN ('pending', 'approved') AND van_id IS NOT NULL
  AND pickup_at < to_timestamp(:t + 21600) AND pickup_at > to_timestamp(:t - 36000)
  AND estimated_dropoff_at > to_timestamp(:t - 21600);
SAVEPOINT booking;
WITH r AS (
    INSERT INTO rides (id, net_id, kind,
        pickup_address, pickup_lat, pickup_lon, pickup_place_id,
        dropoff_address, dropoff_lat, dropoff_lon, dropoff_place_id,
        requested_at, pickup_at, estimated_dropoff_at, needs_wheelchair, companions, note, status, van_id, series_id)
    -- vand makes time-ordered (version 7) ride ids; this is the same layout: Unix milliseconds first.
    VALUES (encode(overlay(uuid_send(gen_random_uuid()) PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3) FROM 1 FOR 6), 'hex')::uuid,
        :net_id, 'scheduled',
        NULL, 41.31633, -72.92241, 4,
        NULL, 41.30917, -72.93139, 5,
        now(), to_timestamp(:t), to_timestamp(:t + 436), false, 0, NULL, 'pending', :van, NULL)
    ON CONFLICT DO NOTHING
    RETURNING *
)
SELECT r.id, r.net_id, r.kind, r.pickup_address, r.pickup_lat, r.pickup_lon, r.pickup_place_id, pp.name,
       r.dropoff_address, r.dropoff_lat, r.dropoff_lon, r.dropoff_place_id, dp.name,
       r.requested_at, r.pickup_at, r.estimated_dropoff_at, r.needs_wheelchair, r.companions, r.status,
       r.van_id, r.note, r.reason, r.series_id, r.created_at, r.updated_at, v.name
FROM r
LEFT JOIN places pp ON pp.id = r.pickup_place_id
LEFT JOIN places dp ON dp.id = r.dropoff_place_id
LEFT JOIN vans v ON v.id = r.van_id;
RELEASE SAVEPOINT booking;
COMMIT;
