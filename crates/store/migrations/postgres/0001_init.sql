-- qiju server schema (PostgreSQL). Keep in step with ../sqlite/0001_init.sql:
-- the server talks to both through sqlx's Any driver, so column types are
-- limited to integers (BIGINT), floats (DOUBLE PRECISION) and text.
-- Times are milliseconds since the Unix epoch.

CREATE TABLE users (
    id             TEXT PRIMARY KEY,
    name           TEXT NOT NULL,
    name_key       TEXT NOT NULL UNIQUE,   -- lower-cased name: names are unique ignoring case
    password_hash  TEXT,                   -- argon2id PHC string; NULL for guests
    guest          BIGINT NOT NULL DEFAULT 0,
    created_ms     BIGINT NOT NULL,
    rating         DOUBLE PRECISION NOT NULL,
    deviation      DOUBLE PRECISION NOT NULL,
    volatility     DOUBLE PRECISION NOT NULL,
    rated_games    BIGINT NOT NULL DEFAULT 0,
    titled_games   BIGINT NOT NULL DEFAULT 0, -- rated games against players holding a title
    awarded_title  TEXT,                   -- special_grandmaster / first_master, never lost
    real_title     TEXT                    -- real-world title, unrelated to rating
);

CREATE TABLE sessions (
    token_hash  TEXT PRIMARY KEY,          -- SHA-256 of the cookie or bearer token
    user_id     TEXT NOT NULL REFERENCES users(id),
    kind        TEXT NOT NULL,             -- cookie / token
    created_ms  BIGINT NOT NULL,
    expires_ms  BIGINT NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_id);

CREATE TABLE games (
    id            TEXT PRIMARY KEY,
    node          TEXT NOT NULL,           -- the node whose task owns the live game
    variant       TEXT NOT NULL,           -- e.g. xiangqi/cxa
    initial_fen   TEXT NOT NULL,
    time_control  TEXT NOT NULL,           -- e.g. 10+5
    initial_ms    BIGINT NOT NULL,
    increment_ms  BIGINT NOT NULL,
    rated         BIGINT NOT NULL,
    red_id        TEXT REFERENCES users(id),   -- NULL when the computer plays red
    black_id      TEXT REFERENCES users(id),
    red_name      TEXT NOT NULL,
    black_name    TEXT NOT NULL,
    red_rating    DOUBLE PRECISION,
    black_rating  DOUBLE PRECISION,
    computer      TEXT,                    -- e.g. level:3 or engine:pikafish
    state         TEXT NOT NULL,           -- live / over / aborted
    result        TEXT,                    -- 1-0 / 0-1 / 1/2-1/2
    winner        TEXT,                    -- red / black
    reason        TEXT,
    detail        TEXT,
    article       TEXT,
    created_ms    BIGINT NOT NULL,
    ended_ms      BIGINT,
    red_ms        BIGINT NOT NULL,         -- clocks when the game ended (or started)
    black_ms      BIGINT NOT NULL
);
CREATE INDEX games_live ON games(state, node);
CREATE INDEX games_red ON games(red_id, created_ms);
CREATE INDEX games_black ON games(black_id, created_ms);

-- One row per move, written before the move is acknowledged.
CREATE TABLE moves (
    game_id    TEXT NOT NULL REFERENCES games(id),
    ply        BIGINT NOT NULL,            -- 1 for red's first move
    coord      TEXT NOT NULL,              -- ICCS
    display    TEXT NOT NULL,
    played_ms  BIGINT NOT NULL,            -- server time the move was accepted
    red_ms     BIGINT NOT NULL,            -- clocks right after the move
    black_ms   BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply)
);

CREATE TABLE rating_history (
    game_id     TEXT NOT NULL REFERENCES games(id),
    user_id     TEXT NOT NULL REFERENCES users(id),
    system      TEXT NOT NULL,             -- elo / glicko2
    rating_before DOUBLE PRECISION NOT NULL,
    rating_after  DOUBLE PRECISION NOT NULL,
    at_ms       BIGINT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX rating_history_user ON rating_history(user_id, at_ms);

-- Liveness of each server node: its last heartbeat tells, after a crash,
-- when the node stopped, so clocks are charged only up to that moment.
CREATE TABLE nodes (
    id            TEXT PRIMARY KEY,
    heartbeat_ms  BIGINT NOT NULL
);
