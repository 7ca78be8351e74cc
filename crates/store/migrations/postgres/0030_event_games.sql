-- Which event a game was made for, written in one transaction with the
-- game's row. The event links the game to its board, match or arena row
-- a moment later; a node that dies in between leaves a live game that no
-- board names, which the restart finds here and calls off (the board is
-- then paired or played again), rather than a game nobody knows.
CREATE TABLE event_games (
    game_id TEXT PRIMARY KEY,
    event_id TEXT NOT NULL
);
CREATE INDEX event_games_event ON event_games (event_id);
