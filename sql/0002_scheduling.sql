-- Scheduling: the database itself refuses a double-booked van, the paper's
-- service hours are the default, and the trip-estimate figures are settings.

-- No two rides that hold a van (pending or approved) may overlap on it.
-- The booking path also takes a transaction-scoped advisory lock, so the
-- deadhead rule (which a range constraint cannot express) is not raced either.
ALTER TABLE rides ADD CONSTRAINT rides_no_double_booking
    EXCLUDE USING gist (van_id WITH =, tstzrange(pickup_at, estimated_dropoff_at, '[)') WITH &&)
    WHERE (status IN ('pending', 'approved') AND van_id IS NOT NULL);

-- What the scheduler reads: rides holding a van around a time.
CREATE INDEX rides_holding_van ON rides (pickup_at) WHERE status IN ('pending', 'approved') AND van_id IS NOT NULL;

-- Which vans a retired van's future rides are on.
CREATE INDEX rides_van ON rides (van_id) WHERE van_id IS NOT NULL;

ALTER TABLE service_hours ADD CONSTRAINT service_hours_window_unique UNIQUE (weekday, start_time, end_time);

-- The Van's hours from the Wheels paper: 24 hours Monday to Friday, 6:00 PM to
-- 7:30 AM on weekends (Friday night runs on to Saturday 7:30 AM).
INSERT INTO service_hours (weekday, start_time, end_time) VALUES
    (2, '00:00', '24:00'), (3, '00:00', '24:00'), (4, '00:00', '24:00'),
    (5, '00:00', '24:00'), (6, '00:00', '24:00'),
    (7, '00:00', '07:30'), (7, '18:00', '07:30'), (1, '18:00', '07:30');

-- Scheduler figures (trip estimate, search window), one JSON document per key.
CREATE TABLE settings (
    key        text PRIMARY KEY,
    value      jsonb NOT NULL,
    updated_by text NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);
