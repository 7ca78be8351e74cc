-- Staged events (issue 28; seed 001's office event): groups playing a
-- round robin, the best `advance_per_group` of each going on to a
-- knockout, and a final round robin of `final_size` (0 everywhere for
-- the other systems); `groups_by_lot`: the groups drawn by lot (seed 001)
-- rather than seeded in a snake.
ALTER TABLE events ADD COLUMN group_count BIGINT NOT NULL DEFAULT 0;
ALTER TABLE events ADD COLUMN group_size BIGINT NOT NULL DEFAULT 0;
ALTER TABLE events ADD COLUMN advance_per_group BIGINT NOT NULL DEFAULT 0;
ALTER TABLE events ADD COLUMN final_size BIGINT NOT NULL DEFAULT 0;
ALTER TABLE events ADD COLUMN groups_by_lot BIGINT NOT NULL DEFAULT 0;
