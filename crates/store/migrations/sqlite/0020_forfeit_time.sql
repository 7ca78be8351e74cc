-- Per-event forfeit time (issue 28; seed 000 21.1: a player who has not
-- come when the time allowed is past loses): an event's window for the
-- first move of each of its games, kept with the game so that whichever
-- node runs it applies it (0: the node's `--abort-after`).
ALTER TABLE games ADD COLUMN first_move_ms BIGINT NOT NULL DEFAULT 0;
ALTER TABLE events ADD COLUMN forfeit_after_ms BIGINT NOT NULL DEFAULT 0;
