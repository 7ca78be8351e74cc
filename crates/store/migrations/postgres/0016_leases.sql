-- Game leases (issue 29: several nodes on one database). A live game is
-- owned by the node named in `node` while `lease_until_ms` is in the
-- future; the owner renews it, and another node may take it once it has
-- run out. Every taking raises `lease_gen`, and the owner's writes of the
-- game's moves are fenced by it: a node that was paused past its lease
-- and woke up cannot write once another node has taken the game.
ALTER TABLE games ADD COLUMN lease_gen BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN lease_until_ms BIGINT NOT NULL DEFAULT 0;
