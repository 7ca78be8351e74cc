-- The events room's Arena (issue 28, item 3) and the arbiter's tools
-- (item 2). An arena runs for `duration_ms` from its start; `ends_ms` is
-- set when it starts. Its games are not rounds: whoever is free is paired,
-- one row per game in event_arena_games, scored from those rows in order
-- (streaks, berserk, short draws: docs/EVENTS.md). `paused` is the
-- arbiter's pause (no pairing, no scheduled round while set);
-- `published_ms` when the arbiter published the final results.
ALTER TABLE events ADD COLUMN duration_ms BIGINT NOT NULL DEFAULT 0;
ALTER TABLE events ADD COLUMN berserk BIGINT NOT NULL DEFAULT 0;
ALTER TABLE events ADD COLUMN ends_ms BIGINT;
ALTER TABLE events ADD COLUMN paused BIGINT NOT NULL DEFAULT 0;
ALTER TABLE events ADD COLUMN published_ms BIGINT;

CREATE TABLE event_arena_games (
    event_id       TEXT NOT NULL REFERENCES events(id),
    seq            BIGINT NOT NULL,           -- 1, 2, … in the order paired
    white          BIGINT NOT NULL,           -- pairing number (first side)
    black          BIGINT NOT NULL,
    game_id        TEXT NOT NULL,
    paired_ms      BIGINT NOT NULL,
    result         TEXT,                      -- NULL while playing; 1-0 0-1 1/2-1/2, or * (called off: counts for no one)
    plies          BIGINT NOT NULL,           -- moves played, both sides (a short draw scores nothing)
    white_berserk  BIGINT NOT NULL,
    black_berserk  BIGINT NOT NULL,
    ended_ms       BIGINT,
    PRIMARY KEY (event_id, seq)
);
CREATE INDEX event_arena_games_game ON event_arena_games(game_id);

-- Titles the operator awards (`qiju admin title`, issue 28 item 6), each
-- with the event whose results justified it (NULL: awarded without one).
CREATE TABLE title_awards (
    user_id     TEXT NOT NULL REFERENCES users(id),
    awarded_ms  BIGINT NOT NULL,
    title       TEXT,                       -- the awarded title set; NULL: cleared
    event_id    TEXT REFERENCES events(id),
    PRIMARY KEY (user_id, awarded_ms)
);
