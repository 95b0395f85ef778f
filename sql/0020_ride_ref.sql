-- A ride's short reference (`K7M-3QX`): what a rider reads to the dispatcher over the phone
-- and what `vanadmin` accepts. Ride ids are time-ordered (UUID v7), so rides booked within
-- a minute share their first characters; a reference never does. Six symbols of Crockford's
-- base 32 (no I, L, O, U), 30 random bits, drawn here at insert whoever writes the ride
-- (vand, vanadmin, psql), and unique because of the UNIQUE constraint, not by luck.
CREATE FUNCTION vand_new_ride_ref() RETURNS text
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    alphabet constant text := '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
    bits bigint;
    code text;
BEGIN
    LOOP
        bits := ('x' || left(gen_random_uuid()::text, 8))::bit(32)::bigint;  -- 32 random bits
        code := '';
        FOR i IN 1..6 LOOP
            code := code || substr(alphabet, (bits & 31)::int + 1, 1);
            bits := bits >> 5;
        END LOOP;
        code := left(code, 3) || '-' || right(code, 3);
        -- Two transactions that drew the same code take turns here, so the second sees the
        -- first's row once it commits and draws again instead of failing on the constraint.
        -- (Rows inserted earlier in the same statement are not seen: one ride per INSERT, as
        -- every writer does; the constraint refuses a duplicate either way.)
        PERFORM pg_advisory_xact_lock(hashtextextended('vand_ride_ref:' || code, 0));
        EXIT WHEN NOT EXISTS (SELECT 1 FROM rides WHERE ref = code);
    END LOOP;
    RETURN code;
END;
$$;

ALTER TABLE rides ADD COLUMN ref text;

-- Existing rides get one each, one statement at a time so each draw sees the ones before;
-- without writing a ride event for every old ride.
ALTER TABLE rides DISABLE TRIGGER rides_events;
DO $$
DECLARE
    ride_id uuid;
BEGIN
    FOR ride_id IN SELECT id FROM rides ORDER BY id LOOP
        UPDATE rides SET ref = vand_new_ride_ref() WHERE id = ride_id;
    END LOOP;
END;
$$;
ALTER TABLE rides ENABLE TRIGGER rides_events;

ALTER TABLE rides
    ALTER COLUMN ref SET DEFAULT vand_new_ride_ref(),
    ALTER COLUMN ref SET NOT NULL,
    ADD CONSTRAINT rides_ref_key UNIQUE (ref),
    ADD CONSTRAINT rides_ref_format CHECK (ref ~ '^[0-9A-HJKMNP-TV-Z]{3}-[0-9A-HJKMNP-TV-Z]{3}$');

-- The webhook payload gains `ride.ref`; adding a field keeps version 1 (docs/events.md).
CREATE OR REPLACE FUNCTION vand_ride_payload(ride rides) RETURNS jsonb
LANGUAGE sql STABLE AS $$
    SELECT jsonb_build_object(
        'id', ($1).id,
        'ref', ($1).ref,
        'net_id', ($1).net_id,
        'kind', ($1).kind,
        'status', ($1).status,
        'pickup_address', ($1).pickup_address,
        'pickup_lat', ($1).pickup_lat,
        'pickup_lon', ($1).pickup_lon,
        'pickup_place_id', ($1).pickup_place_id,
        'dropoff_address', ($1).dropoff_address,
        'dropoff_lat', ($1).dropoff_lat,
        'dropoff_lon', ($1).dropoff_lon,
        'dropoff_place_id', ($1).dropoff_place_id,
        'requested_at', ($1).requested_at,
        'pickup_at', ($1).pickup_at,
        'estimated_dropoff_at', ($1).estimated_dropoff_at,
        'needs_wheelchair', ($1).needs_wheelchair,
        'companions', ($1).companions,
        'note', ($1).note,
        'van_id', ($1).van_id,
        'decided_by', ($1).decided_by,
        'decided_at', ($1).decided_at,
        'reason', ($1).reason,
        'series_id', ($1).series_id,
        'cancelled_by', ($1).cancelled_by,
        'cancelled_late', ($1).cancelled_late,
        'cancelled_at', ($1).cancelled_at,
        'reminded_at', ($1).reminded_at,
        'created_at', ($1).created_at,
        'updated_at', ($1).updated_at,
        'promise', ($1).promise,
        'window_start', ($1).window_start,
        'window_end', ($1).window_end,
        'max_ride_seconds', ($1).max_ride_seconds)
$$;
