-- The dispatcher's queue and its alerts (issue 26) read the pending rides oldest first, and the
-- console's stream asks every 30 s whether one crossed VAND_PENDING_ALERT: a partial index on the
-- few pending rides, in the queue's order, so neither scans the day's rides.
CREATE INDEX rides_pending ON rides (requested_at, created_at, id) WHERE status = 'pending';
