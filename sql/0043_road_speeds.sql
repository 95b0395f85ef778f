-- The road's speed as the vans drive it (issue 32, item 5). The travel model is one constant
-- speed (`settings.scheduler.estimator`); this keeps how much slower (or faster) the real drives
-- were than the model, as a factor on its times, by local hour of the day, learned from the
-- drivers' taps (RoadSpeeds.learn, on every re-plan from the road). Hour -1 holds every hour
-- together, the fallback for an hour with few legs, and `learned_through`, the last tap learned
-- from; its row lock makes two planners learn one at a time, each leg once. The next day starts
-- from what the day before learned.
CREATE TABLE road_speeds (
    hour smallint PRIMARY KEY CHECK (hour BETWEEN -1 AND 23),
    factor double precision NOT NULL CHECK (factor BETWEEN 0.5 AND 2.5),
    samples integer NOT NULL CHECK (samples >= 0),
    -- The running mean of the ratios' squares, weighted as `factor` is: their spread, so that a
    -- factor no further from 1 than its noise is not used.
    squares double precision NOT NULL CHECK (squares >= 0),
    learned_through timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
);
