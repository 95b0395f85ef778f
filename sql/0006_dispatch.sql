-- Dispatch: refused bookings are kept (the report counts them as denials).

CREATE TABLE booking_refusals (
    id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    net_id              text NOT NULL,
    requested_pickup_at timestamptz NOT NULL,
    reason              text NOT NULL,
    needs_wheelchair    boolean NOT NULL DEFAULT false,
    refused_at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX booking_refusals_at ON booking_refusals (refused_at);

-- The dispatcher's lists and reports read rides by pickup time and status.
CREATE INDEX rides_pickup ON rides (pickup_at);
