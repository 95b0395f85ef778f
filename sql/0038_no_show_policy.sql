-- The no-show policy (issue 34): a rider's record, the written notice of a proposed suspension,
-- her appeal, the office's decision, and the suspension the booking enforces (49 CFR 37.125(h)).
-- The policy's numbers are the `no_show_policy` row of `settings` (`vanadmin policy set`); the
-- rules that judge a trip are in VanDomain/Standing (NoShowRecord), not here.

-- A no-show the office excused (illness, a family emergency, a wrong address from us): it never
-- counts. One excusal per ride; `vanadmin noshows excuse REF --reason`.
CREATE TABLE noshow_excusals (
    ride_id uuid PRIMARY KEY REFERENCES rides (id) ON DELETE CASCADE,
    reason text NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
    excused_by text NOT NULL,
    excused_at timestamptz NOT NULL
);

-- A proposed suspension: the notice (the trips it names, the period, the days to appeal), her
-- appeal, the office's decision, and when the service cancelled her rides in the period.
-- - `proposed`: the notice went out; the suspension takes effect on `starts_on` unless appealed.
-- - `appealed`: she appealed in time; on hold until decided.
-- - `upheld`: decided against her; in effect from `starts_on` (moved to the decision's day if
--   that is later, the period kept whole) until `ends_on`, the first day she rides again.
-- - `overturned`: decided for her; never in effect.
CREATE TABLE suspensions (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    net_id text NOT NULL,
    -- The counted trip that crossed the policy: the notice's events are written on it. Two
    -- reviews of the same record propose the same anchor, so the constraint below keeps one.
    anchor_ride_id uuid NOT NULL REFERENCES rides (id),
    trips uuid[] NOT NULL CHECK (cardinality(trips) > 0),
    step int NOT NULL CHECK (step >= 1),
    period_days int NOT NULL CHECK (period_days >= 1),
    noticed_at timestamptz NOT NULL,
    starts_on date NOT NULL,
    ends_on date NOT NULL,
    appeal_by date NOT NULL,
    status text NOT NULL DEFAULT 'proposed' CHECK (status IN ('proposed', 'appealed', 'upheld', 'overturned')),
    appeal_text text CHECK (length(appeal_text) BETWEEN 1 AND 2000),
    appeal_filed_at timestamptz,
    appeal_filed_by text,
    decided_at timestamptz,
    decided_by text,
    decision_reason text CHECK (length(decision_reason) BETWEEN 1 AND 1000),
    started_at timestamptz,
    CONSTRAINT suspensions_one_notice_per_crossing UNIQUE (net_id, anchor_ride_id),
    CONSTRAINT suspensions_period CHECK (ends_on > starts_on),
    CONSTRAINT suspensions_appeal_kept CHECK ((status = 'proposed') = (appeal_text IS NULL)),
    CONSTRAINT suspensions_decided CHECK ((status IN ('upheld', 'overturned')) = (decided_at IS NOT NULL AND decision_reason IS NOT NULL))
);
CREATE INDEX suspensions_by_rider ON suspensions (net_id, starts_on);

-- A ride the office booked inside her suspension for a medical reason
-- (`vanadmin rides book … --override-suspension --reason`): the suspension's start leaves it.
CREATE TABLE suspension_overrides (
    ride_id uuid PRIMARY KEY REFERENCES rides (id) ON DELETE CASCADE,
    suspension_id bigint NOT NULL REFERENCES suspensions (id),
    reason text NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
    booked_by text NOT NULL,
    booked_at timestamptz NOT NULL
);

-- Riders whose record changed: a ride became a no-show, or was cancelled late by her. The trigger
-- loop reviews each (FOR UPDATE SKIP LOCKED) and proposes a suspension when the record crosses
-- the policy, so the notice goes out at once whichever path recorded the no-show.
CREATE TABLE standing_reviews (
    net_id text PRIMARY KEY,
    queued_at timestamptz NOT NULL DEFAULT now()
);

CREATE FUNCTION vand_queue_standing_review() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.status = 'no_show' OR (NEW.status = 'cancelled' AND NEW.cancelled_by = 'rider' AND NEW.cancelled_late) THEN
        INSERT INTO standing_reviews (net_id) VALUES (NEW.net_id) ON CONFLICT (net_id) DO NOTHING;
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER rides_queue_standing_review
    AFTER UPDATE OF status ON rides
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status)
    EXECUTE FUNCTION vand_queue_standing_review();
