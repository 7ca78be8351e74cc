-- The moves and the command log are looked up only by (game, ply) and
-- (game, seq), so they are stored WITHOUT ROWID: each table is then one
-- B-tree ordered by its primary key, and a move's commit touches two pages
-- instead of four (a rowid table keeps its primary key in a second index).
-- SQLite cannot change a table into that form in place: each is rebuilt
-- and every row copied. Nothing references either table, and neither has
-- an index besides its primary key.
CREATE TABLE moves_new (
    game_id    TEXT NOT NULL REFERENCES games(id),
    ply        BIGINT NOT NULL,            -- 1 for the first side's first move
    coord      TEXT NOT NULL,              -- ICCS
    display    TEXT NOT NULL,
    played_ms  BIGINT NOT NULL,            -- server time the move was accepted
    first_ms   BIGINT NOT NULL,            -- clocks right after the move
    second_ms  BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
INSERT INTO moves_new (game_id, ply, coord, display, played_ms, first_ms, second_ms)
    SELECT game_id, ply, coord, display, played_ms, first_ms, second_ms FROM moves;
DROP TABLE moves;
ALTER TABLE moves_new RENAME TO moves;

CREATE TABLE commands_new (
    game_id  TEXT NOT NULL REFERENCES games(id),
    seq      BIGINT NOT NULL,   -- 0, 1, 2 … per game
    body     TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
INSERT INTO commands_new (game_id, seq, body) SELECT game_id, seq, body FROM commands;
DROP TABLE commands;
ALTER TABLE commands_new RENAME TO commands;
