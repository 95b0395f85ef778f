-- The way back (issue 35, item 1): a return booked with its outbound names it. The two are
-- booked in one transaction, both or neither; after that each leg lives on its own (a no-show
-- on the way there leaves the way back, as ADA guidance reads the legs as independent trips).
-- Set at insert only: it is not news to the rider (the trigger does not watch it).

ALTER TABLE rides ADD COLUMN return_of uuid REFERENCES rides (id) ON DELETE SET NULL;
CREATE UNIQUE INDEX rides_return_of ON rides (return_of) WHERE return_of IS NOT NULL;
