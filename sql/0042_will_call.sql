-- Will-call returns (issue 35, item 2): "I'll call when I'm ready". The ride there is booked as
-- usual; its way back waits here, unscheduled, until she (or the dispatcher, by phone) says she
-- is ready. Then it is booked as an on-demand ride from `pickup_*` (where the ride there left her,
-- unless she gave another place) back to the ride there's pickup, naming the ride there in
-- `rides.return_of`, and `ready_at` is set in the same transaction. The row lock on this record
-- makes two "I'm ready" taps book one ride; `rides_return_of` (sql/0041) would refuse a second.
--
-- Open: `ready_at` and `closed_at` both null. Closed: cancelled with the ride there
-- (`with_return`) or by the office.
CREATE TABLE will_calls (
    ride_id uuid PRIMARY KEY REFERENCES rides (id) ON DELETE CASCADE,
    net_id text NOT NULL REFERENCES riders (net_id),
    pickup_address text,
    pickup_lat double precision CHECK (pickup_lat BETWEEN -90 AND 90),
    pickup_lon double precision CHECK (pickup_lon BETWEEN -180 AND 180),
    pickup_place_id bigint REFERENCES places (id),
    created_at timestamptz NOT NULL,
    ready_at timestamptz,
    ready_by text,
    closed_at timestamptz,
    closed_by text,
    CHECK (pickup_address IS NOT NULL OR pickup_lat IS NOT NULL OR pickup_place_id IS NOT NULL),
    CHECK ((pickup_lat IS NULL) = (pickup_lon IS NULL)),
    CHECK (ready_at IS NULL OR closed_at IS NULL)
);

-- The day board's "will-calls open", oldest first.
CREATE INDEX will_calls_open ON will_calls (created_at) WHERE ready_at IS NULL AND closed_at IS NULL;
CREATE INDEX will_calls_rider ON will_calls (net_id);
