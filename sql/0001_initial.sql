-- vand: the first schema. Tables of the design brief's data section.
-- Times are timestamptz (UTC inside); the service time zone lives in configuration.

CREATE EXTENSION IF NOT EXISTS btree_gist;

-- Who may book (kept by the disabilities office). An entry may expire.
CREATE TABLE whitelist (
    net_id      text PRIMARY KEY CHECK (net_id ~ '^[a-z][a-z0-9._-]{1,31}$'),
    name        text,
    email       text,
    note        text,
    valid_until date,
    added_by    text NOT NULL,
    added_at    timestamptz NOT NULL DEFAULT now()
);

-- Who may log in. A rider not on the whitelist can log in but cannot book.
CREATE TABLE riders (
    net_id                   text PRIMARY KEY CHECK (net_id ~ '^[a-z][a-z0-9._-]{1,31}$'),
    name                     text,
    phone                    text,
    email                    text,
    password_hash            text NOT NULL,
    must_change_password     boolean NOT NULL DEFAULT true,
    temp_password_expires_at timestamptz,
    failed_logins            integer NOT NULL DEFAULT 0 CHECK (failed_logins >= 0),
    locked_until             timestamptz,
    disabled                 boolean NOT NULL DEFAULT false,
    created_at               timestamptz NOT NULL DEFAULT now()
);

-- Opaque bearer tokens; only their SHA-256 is stored.
CREATE TABLE sessions (
    token_sha256 bytea PRIMARY KEY CHECK (length(token_sha256) = 32),
    net_id       text NOT NULL REFERENCES riders (net_id) ON DELETE CASCADE,
    created_at   timestamptz NOT NULL DEFAULT now(),
    expires_at   timestamptz NOT NULL,
    last_seen_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sessions_net_id ON sessions (net_id);

CREATE TABLE vans (
    id                   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name                 text NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 64),
    seats                integer NOT NULL CHECK (seats >= 1),
    wheelchair_positions integer NOT NULL DEFAULT 0 CHECK (wheelchair_positions >= 0),
    active               boolean NOT NULL DEFAULT true
);

-- Campus landmarks riders and drivers both know.
CREATE TABLE places (
    id      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name    text NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 120),
    aliases text[] NOT NULL DEFAULT '{}',
    lat     double precision NOT NULL CHECK (lat BETWEEN -90 AND 90),
    lon     double precision NOT NULL CHECK (lon BETWEEN -180 AND 180)
);

-- Weekly windows in the service time zone; end <= start crosses midnight.
-- weekday: 1 = Sunday … 7 = Saturday.
CREATE TABLE service_hours (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    weekday    smallint NOT NULL CHECK (weekday BETWEEN 1 AND 7),
    start_time time NOT NULL,
    end_time   time NOT NULL
);

CREATE TABLE closures (
    day      date PRIMARY KEY,
    reason   text,
    added_by text NOT NULL,
    added_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE rides (
    id                   uuid PRIMARY KEY,
    net_id               text NOT NULL REFERENCES riders (net_id),
    kind                 text NOT NULL CHECK (kind IN ('on_demand', 'scheduled')),
    pickup_address       text,
    pickup_lat           double precision CHECK (pickup_lat BETWEEN -90 AND 90),
    pickup_lon           double precision CHECK (pickup_lon BETWEEN -180 AND 180),
    pickup_place_id      bigint REFERENCES places (id),
    dropoff_address      text,
    dropoff_lat          double precision CHECK (dropoff_lat BETWEEN -90 AND 90),
    dropoff_lon          double precision CHECK (dropoff_lon BETWEEN -180 AND 180),
    dropoff_place_id     bigint REFERENCES places (id),
    requested_at         timestamptz NOT NULL,
    pickup_at            timestamptz NOT NULL,
    estimated_dropoff_at timestamptz NOT NULL CHECK (estimated_dropoff_at > pickup_at),
    needs_wheelchair     boolean NOT NULL DEFAULT false,
    companions           integer NOT NULL DEFAULT 0 CHECK (companions BETWEEN 0 AND 2),
    note                 text CHECK (length(note) <= 500),
    status               text NOT NULL DEFAULT 'pending'
                         CHECK (status IN ('pending', 'approved', 'rejected', 'cancelled', 'completed', 'no_show')),
    van_id               bigint REFERENCES vans (id),
    decided_by           text,
    decided_at           timestamptz,
    reason               text,
    series_id            uuid,
    created_at           timestamptz NOT NULL DEFAULT now(),
    updated_at           timestamptz NOT NULL DEFAULT now(),
    reminded_at          timestamptz,
    CHECK (pickup_address IS NOT NULL OR pickup_lat IS NOT NULL OR pickup_place_id IS NOT NULL),
    CHECK (dropoff_address IS NOT NULL OR dropoff_lat IS NOT NULL OR dropoff_place_id IS NOT NULL),
    CHECK ((pickup_lat IS NULL) = (pickup_lon IS NULL)),
    CHECK ((dropoff_lat IS NULL) = (dropoff_lon IS NULL))
);
CREATE INDEX rides_rider_pickup ON rides (net_id, pickup_at);
CREATE INDEX rides_van_pickup ON rides (van_id, pickup_at) WHERE status IN ('pending', 'approved');
CREATE INDEX rides_due_reminder ON rides (pickup_at) WHERE status = 'approved' AND reminded_at IS NULL;
CREATE INDEX rides_series ON rides (series_id) WHERE series_id IS NOT NULL;

-- One row per change to a ride; database triggers (a later migration) fill it
-- so that no writer can forget.
CREATE TABLE ride_events (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    ride_id    uuid NOT NULL,
    kind       text NOT NULL,
    payload    jsonb NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ride_events_ride ON ride_events (ride_id, id);

-- One row per event per sink; claimed with FOR UPDATE SKIP LOCKED.
CREATE TABLE deliveries (
    event_id        bigint NOT NULL REFERENCES ride_events (id) ON DELETE CASCADE,
    sink            text NOT NULL,
    attempts        integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    delivered_at    timestamptz,
    parked_at       timestamptz,
    last_error      text,
    PRIMARY KEY (event_id, sink)
);
CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE delivered_at IS NULL AND parked_at IS NULL;

-- Every dispatcher action, with who and when.
CREATE TABLE audit_log (
    id      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    actor   text NOT NULL,
    action  text NOT NULL,
    subject text,
    details jsonb NOT NULL DEFAULT '{}',
    at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_at ON audit_log (at);
