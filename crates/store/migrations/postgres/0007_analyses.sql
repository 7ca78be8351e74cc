-- Computer reviews of finished games: one per game, asked for by a player
-- (`analysis::Reviews`); `result` is the review as JSON once done.
CREATE TABLE analyses (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    requested_by TEXT NOT NULL REFERENCES users(id),
    state TEXT NOT NULL,
    result TEXT,
    created_ms BIGINT NOT NULL,
    finished_ms BIGINT
);
CREATE INDEX analyses_by_requester ON analyses(requested_by, created_ms);
