-- Tournaments on the platform (issue 28, the events room): an event, its
-- entries, its rounds and their pairings, and the arbiter's log. Everything
-- a running event knows is here, so a restart resumes it with the same
-- pairings and results. Players are referred to by pairing number inside
-- an event (TRF's starting rank), as the tournament crate pairs them.
CREATE TABLE events (
    id             TEXT PRIMARY KEY,
    node           TEXT NOT NULL,              -- the node that runs it
    name           TEXT NOT NULL,
    organiser_id   TEXT NOT NULL REFERENCES users(id),
    variant        TEXT NOT NULL,              -- registry id
    time_control   TEXT NOT NULL,
    rated          BIGINT NOT NULL,
    system         TEXT NOT NULL,              -- swiss, round-robin, double-round-robin, knockout
    rounds         BIGINT NOT NULL,
    scoring        TEXT NOT NULL,              -- 1-0.5-0, 2-1-0, 3-1-0
    tiebreaks      TEXT NOT NULL,              -- fide, cxa
    min_rating     BIGINT,
    max_rating     BIGINT,
    invitation     TEXT,                       -- the code to join, if any
    starts         TEXT NOT NULL,              -- JSON: each round's scheduled start (ms), may be []
    match_games    BIGINT NOT NULL,            -- knockout: games of a match proper (1, 2 or 3)
    playoff_games  BIGINT NOT NULL,            -- knockout: rapid play-off games after a tie
    armageddon     BIGINT NOT NULL,            -- knockout: then an armageddon game (a draw is black's win)
    playoff_time_control TEXT NOT NULL,        -- knockout: the play-off and armageddon games' clock
    state          TEXT NOT NULL,              -- open, running, finished
    current_round  BIGINT NOT NULL,            -- 0 before the first pairing
    created_ms     BIGINT NOT NULL,
    finished_ms    BIGINT
);
CREATE INDEX events_state ON events(state, created_ms);

CREATE TABLE event_entries (
    event_id       TEXT NOT NULL REFERENCES events(id),
    user_id        TEXT NOT NULL REFERENCES users(id),
    number         BIGINT NOT NULL,            -- pairing number (TRF starting rank)
    name           TEXT NOT NULL,
    rating         BIGINT NOT NULL,
    withdrawn      BIGINT NOT NULL,
    withdrawn_from BIGINT,                     -- the first round not paired (seed 000 20.4)
    late           BIGINT NOT NULL,            -- added by the arbiter after round 1 was paired
    first_round    BIGINT NOT NULL,            -- the first round the entry may be paired in
    joined_ms      BIGINT NOT NULL,
    PRIMARY KEY (event_id, user_id)
);
CREATE UNIQUE INDEX event_entries_number ON event_entries(event_id, number);

CREATE TABLE event_rounds (
    event_id     TEXT NOT NULL REFERENCES events(id),
    round        BIGINT NOT NULL,
    paired_ms    BIGINT NOT NULL,
    finished_ms  BIGINT,                      -- when its last result came in
    PRIMARY KEY (event_id, round)
);

CREATE TABLE event_pairings (
    event_id   TEXT NOT NULL REFERENCES events(id),
    round      BIGINT NOT NULL,
    board      BIGINT NOT NULL,
    white      BIGINT NOT NULL,               -- pairing number (first side)
    black      BIGINT,                        -- NULL: white has the bye
    game_id    TEXT,
    result     TEXT,                          -- NULL while playing; 1-0 0-1 1/2-1/2 +- -+ -- bye
    forfeit    BIGINT NOT NULL,               -- 1: scored without play (seed 000 21.4)
    PRIMARY KEY (event_id, round, board)
);
CREATE INDEX event_pairings_game ON event_pairings(game_id);

-- A knockout match's games, in order: the board's row in event_pairings is
-- the match (its result: which player goes through) and names the game
-- being played now.
CREATE TABLE event_match_games (
    event_id   TEXT NOT NULL REFERENCES events(id),
    round      BIGINT NOT NULL,
    board      BIGINT NOT NULL,
    game_no    BIGINT NOT NULL,               -- 1, 2, … over the whole match
    phase      TEXT NOT NULL,                 -- regular, playoff, armageddon
    white      BIGINT NOT NULL,               -- pairing number with the first side
    game_id    TEXT NOT NULL,
    result     TEXT,                          -- NULL while playing; 1-0, 0-1, 1/2-1/2 as the game went
    PRIMARY KEY (event_id, round, board, game_no)
);
CREATE INDEX event_match_games_game ON event_match_games(game_id);

CREATE TABLE event_log (
    event_id  TEXT NOT NULL REFERENCES events(id),
    seq       BIGINT NOT NULL,
    at_ms     BIGINT NOT NULL,
    actor_id  TEXT,                           -- NULL: the server itself
    actor     TEXT NOT NULL,                  -- the name shown
    action    TEXT NOT NULL,
    detail    TEXT NOT NULL,
    PRIMARY KEY (event_id, seq)
);

-- Who may create rated events: granted by the operator (`qiju admin organiser`).
CREATE TABLE organisers (
    user_id     TEXT PRIMARY KEY REFERENCES users(id),
    granted_ms  BIGINT NOT NULL
);
