-- Standing rides that live a term (issue 35 item 3): a weekly series is a record of its own,
-- not only the rides that share `rides.series_id`. The record keeps the pattern (weekdays, last
-- date) and the template each occurrence is booked from (places, time of day, arrive-by or
-- pickup, wheelchair, companions, note); an edit "from a date on" changes the template, and a
-- resumed hold books from it. Its id is the rides' `series_id`.
--
-- Weekdays and the time of day are local to the service zone, which lives in configuration
-- (sql/0001): a series booked before this migration gets its record from its rides, in that zone,
-- the first time it is read (SeriesStore.load), not here.
CREATE TABLE series (
    id uuid PRIMARY KEY,
    net_id text NOT NULL REFERENCES riders (net_id),
    -- 1 = Sunday … 7 = Saturday, as Recurrence counts them.
    weekdays smallint[] NOT NULL CHECK (cardinality(weekdays) BETWEEN 1 AND 7 AND weekdays <@ ARRAY[1, 2, 3, 4, 5, 6, 7]::smallint[]),
    until date NOT NULL,
    pickup_address text,
    pickup_lat double precision CHECK (pickup_lat BETWEEN -90 AND 90),
    pickup_lon double precision CHECK (pickup_lon BETWEEN -180 AND 180),
    pickup_place_id bigint REFERENCES places (id),
    dropoff_address text,
    dropoff_lat double precision CHECK (dropoff_lat BETWEEN -90 AND 90),
    dropoff_lon double precision CHECK (dropoff_lon BETWEEN -180 AND 180),
    dropoff_place_id bigint REFERENCES places (id),
    -- The time asked each day: the pickup, or the arrival for `arrive_by`.
    time_of_day time NOT NULL,
    promise text NOT NULL DEFAULT 'pickup' CHECK (promise IN ('pickup', 'arrive_by')),
    needs_wheelchair boolean NOT NULL DEFAULT false,
    companions integer NOT NULL DEFAULT 0 CHECK (companions BETWEEN 0 AND 2),
    note text CHECK (length(note) <= 500),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CHECK (pickup_address IS NOT NULL OR pickup_lat IS NOT NULL OR pickup_place_id IS NOT NULL),
    CHECK (dropoff_address IS NOT NULL OR dropoff_lat IS NOT NULL OR dropoff_place_id IS NOT NULL)
);

CREATE INDEX series_rider ON series (net_id);

-- "Home from Dec 20 to Jan 5": the series' occurrences in the range were cancelled (by the
-- rider, not late, with the reason `held: …`); resuming early books the rest again and sets
-- `resumed_at` (the hold then covers `from_day` up to the day it was resumed).
CREATE TABLE series_holds (
    id bigserial PRIMARY KEY,
    series_id uuid NOT NULL REFERENCES series (id) ON DELETE CASCADE,
    from_day date NOT NULL,
    to_day date NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    created_by text NOT NULL,
    resumed_at timestamptz,
    resumed_by text,
    CHECK (to_day >= from_day)
);

CREATE INDEX series_holds_series ON series_holds (series_id, from_day);
