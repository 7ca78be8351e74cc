-- Ratings per player per rating pool (the registry gives each variant its
-- pool: the four Xiangqi rule sets share `xiangqi`, chess has `chess`,
-- Chess960 `chess960`). A player has a row in a pool once they play a rated
-- game there; until then the default rating stands. The ratings so far were
-- all Xiangqi's: they move into that pool. (The users table keeps its old
-- rating columns, no longer read.)
CREATE TABLE ratings (
    user_id       TEXT NOT NULL REFERENCES users(id),
    pool          TEXT NOT NULL,
    rating        DOUBLE PRECISION NOT NULL,
    deviation     DOUBLE PRECISION NOT NULL,
    volatility    DOUBLE PRECISION NOT NULL,
    rated_games   BIGINT NOT NULL DEFAULT 0,
    titled_games  BIGINT NOT NULL DEFAULT 0, -- rated games against title holders (Xiangqi titles, seed 003)
    PRIMARY KEY (user_id, pool)
);
INSERT INTO ratings (user_id, pool, rating, deviation, volatility, rated_games, titled_games)
    SELECT id, 'xiangqi', rating, deviation, volatility, rated_games, titled_games
    FROM users WHERE rated_games > 0 OR titled_games > 0;
ALTER TABLE rating_history ADD COLUMN pool TEXT NOT NULL DEFAULT 'xiangqi';
