-- A plan a connection caches is made on first use: on a young rides table (a fresh install, the
-- first minutes of the day's bookings) a scan of the whole table is the cheapest, and that plan
-- is kept as the table grows, until an ANALYZE happens to invalidate it. Under bench-load the
-- route check then read ~77 blocks per ride checked where the van's own rides take ~9. The
-- check's statements look rides up by id and by van, so they keep to the indexes
-- (rides_pkey, rides_van_aboard) whatever the table's size was when they were planned.
ALTER FUNCTION vand_check_route() SET enable_seqscan = off;
ALTER FUNCTION vand_check_route() SET enable_bitmapscan = off;
