-- A knockout match's armageddon colour, chosen by the player who had no
-- choice at the lot (seed 001: 和棋黑胜, the colour chosen by the other
-- player) within the event's wait; the server chooses black for them when
-- the wait runs out. The row is written when the choice falls due, so a
-- restart finds the wait (and its end) where it was.
ALTER TABLE events ADD COLUMN armageddon_choice_ms BIGINT NOT NULL DEFAULT 60000;

CREATE TABLE event_armageddon_choices (
    event_id   TEXT NOT NULL REFERENCES events(id),
    round      BIGINT NOT NULL,
    board      BIGINT NOT NULL,
    chooser    BIGINT NOT NULL,               -- pairing number of the player who chooses
    due_ms     BIGINT NOT NULL,               -- the wait's end (ms since the epoch)
    side       TEXT,                          -- NULL while waiting; first or second: the chooser's side
    chosen_ms  BIGINT,
    by_server  BIGINT NOT NULL DEFAULT 0,     -- 1: the wait ran out and the server chose black
    PRIMARY KEY (event_id, round, board)
);
