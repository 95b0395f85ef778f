-- The scheduler reads the rides picked up in a span and those still aboard at its start
-- (pickup_at in [start - 12 h, end) and estimated_dropoff_at > start). With the drop-off in the
-- index, a booking skips the rides that ended before the span inside the index, never
-- fetching them from the table.
DROP INDEX rides_holding_van;
CREATE INDEX rides_holding_van ON rides (pickup_at, estimated_dropoff_at) WHERE ride_holds_van(status) AND van_id IS NOT NULL;
