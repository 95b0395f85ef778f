-- Negotiation and denials, as 49 CFR 37.131(b) counts them (issue 35, item 4).
--
-- A refusal is kept with the trip it was for (`trip_key`: her pickup and drop-off, as places or
-- addresses; `trip_words` as people read them) and whether a standing series asked. A booking of the same trip on the same service
-- day within 10 minutes of a refusal answers it (`answered_by`): the ride then records the time
-- she asked first (`negotiated_from`) and how far it moved (`negotiated_minutes`). Refusals left
-- unanswered 10 minutes on, and rides booked more than 60 minutes from the time first asked, are
-- denials (`DenialReport`, VanServices/Dispatch).

ALTER TABLE booking_refusals
    ADD COLUMN trip_key text NOT NULL DEFAULT '',
    ADD COLUMN trip_words text NOT NULL DEFAULT '',
    ADD COLUMN promise text NOT NULL DEFAULT 'pickup' CHECK (promise IN ('pickup', 'arrive_by')),
    ADD COLUMN standing boolean NOT NULL DEFAULT false,
    ADD COLUMN answered_by uuid REFERENCES rides (id) ON DELETE SET NULL;

-- The booking looks up her recent refusals of the trip; the report reads a period's refusals.
CREATE INDEX booking_refusals_rider_trip ON booking_refusals (net_id, trip_key, refused_at);
CREATE INDEX booking_refusals_requested ON booking_refusals (requested_pickup_at);

ALTER TABLE rides
    ADD COLUMN negotiated_from timestamptz,
    ADD COLUMN negotiated_minutes integer,
    ADD CONSTRAINT rides_negotiated CHECK ((negotiated_from IS NULL) = (negotiated_minutes IS NULL));
