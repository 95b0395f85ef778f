-- A dispatcher's van is kept (issue 31): a ride the dispatcher put on a van (approve or move with
-- a van named) is pinned there. The background planner and re-planning from the road may re-time
-- it within its promise, but not move it to another van, until a dispatcher lets it go
-- (`vanadmin rides unpin`, the console's ride page). The column names who pinned it; NULL: the
-- planner may move it. It is not among the columns whose change writes a ride event (the move
-- itself is the event; a pin or its release changes nothing the rider sees), so the rides_events
-- trigger, built from the column list of sql/0030, is left as it is.
ALTER TABLE rides ADD COLUMN van_pinned_by text;
