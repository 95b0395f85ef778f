-- Rider booking: idempotent retries, cancellations that remember who and how late.

-- The first answer to a request with an Idempotency-Key, returned again on a retry.
-- Written in the same transaction as the rides it booked.
CREATE TABLE idempotency_keys (
    net_id         text NOT NULL REFERENCES riders (net_id) ON DELETE CASCADE,
    key            text NOT NULL CHECK (length(key) BETWEEN 1 AND 200),
    request_sha256 bytea NOT NULL,
    status         integer NOT NULL,
    body           text NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (net_id, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);

ALTER TABLE rides ADD COLUMN cancelled_by text CHECK (cancelled_by IN ('rider', 'service'));
ALTER TABLE rides ADD COLUMN cancelled_late boolean NOT NULL DEFAULT false;
ALTER TABLE rides ADD COLUMN cancelled_at timestamptz;
