-- Sides are first/second in storage, whatever a game calls them (red/black
-- in Xiangqi, white/black in chess): the columns are renamed, data kept, and
-- the stored winners rewritten ('red' and 'white' move first).
ALTER TABLE games RENAME COLUMN red_id TO first_id;
ALTER TABLE games RENAME COLUMN black_id TO second_id;
ALTER TABLE games RENAME COLUMN red_name TO first_name;
ALTER TABLE games RENAME COLUMN black_name TO second_name;
ALTER TABLE games RENAME COLUMN red_rating TO first_rating;
ALTER TABLE games RENAME COLUMN black_rating TO second_rating;
ALTER TABLE games RENAME COLUMN red_ms TO first_ms;
ALTER TABLE games RENAME COLUMN black_ms TO second_ms;
UPDATE games SET winner = 'first' WHERE winner IN ('red', 'white');
UPDATE games SET winner = 'second' WHERE winner = 'black';
DROP INDEX games_red;
DROP INDEX games_black;
CREATE INDEX games_first ON games(first_id, created_ms);
CREATE INDEX games_second ON games(second_id, created_ms);

ALTER TABLE moves RENAME COLUMN red_ms TO first_ms;
ALTER TABLE moves RENAME COLUMN black_ms TO second_ms;
