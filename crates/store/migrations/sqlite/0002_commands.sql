-- The refereed session's command log (session::Command as JSON), one row
-- per accepted command, written in the same transaction as the move it
-- carries. Replaying it rebuilds the live game exactly after a restart.
CREATE TABLE commands (
    game_id  TEXT NOT NULL REFERENCES games(id),
    seq      BIGINT NOT NULL,   -- 0, 1, 2 … per game
    body     TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
