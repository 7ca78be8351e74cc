-- A scheduled event's rounds after those with a start of their own are
-- paired this long after the round before ended (lichess's Swiss
-- "interval between rounds"); NULL: the arbiter pairs them. Each such
-- start is written into `starts` when the round before closes, so the
-- schedule, once known, is read as every other start is.
ALTER TABLE events ADD COLUMN round_interval_ms INTEGER;
