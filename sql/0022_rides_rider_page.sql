-- A rider's page of rides (GET /v1/rides, issue 16) is ordered by (pickup_at, id), the id
-- breaking ties between rides at the same minute, and its cursor compares that pair. The
-- index was (net_id, pickup_at), so every page sorted its rows before the LIMIT; with the id
-- in the index the scan returns them in page order and stops after the page (docs/load.md).
-- It replaces the old index, whose every use this one serves.
CREATE INDEX rides_rider_pickup_id ON rides (net_id, pickup_at, id);
DROP INDEX rides_rider_pickup;
