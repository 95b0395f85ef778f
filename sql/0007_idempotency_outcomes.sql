-- What an Idempotency-Key remembers is typed, not parsed back out of a stored answer:
-- the outcome, the ride or series the request made and the refusal reason are written in
-- the booking's own transaction; the exact answer's text right after that commits (the
-- answer is rendered outside the transaction, which holds the van-day locks).
ALTER TABLE idempotency_keys
    ADD COLUMN outcome   text CHECK (outcome IN ('booked', 'refused')),
    ADD COLUMN ride_id   uuid,
    ADD COLUMN series_id uuid,
    ADD COLUMN reason    text,
    ALTER COLUMN body DROP NOT NULL;
UPDATE idempotency_keys SET outcome = CASE WHEN status = 201 THEN 'booked' ELSE 'refused' END WHERE status <> 0;
UPDATE idempotency_keys SET body = NULL WHERE body = '';
ALTER TABLE idempotency_keys DROP COLUMN status;
