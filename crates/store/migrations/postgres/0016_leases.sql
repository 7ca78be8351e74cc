-- Game leases (issue 29: several nodes on one database). A live game is
-- held by the node named in `node` for as long as that node's heartbeat
-- (nodes.heartbeat_ms, written every second) is fresh and it has not
-- released its games; another node may take it over after that. Every
-- taking raises the game's `lease_gen`, and the owner's writes of the
-- game's moves are fenced by it: a node that was paused past its lease and
-- woke up cannot write once another node has taken the game.
ALTER TABLE games ADD COLUMN lease_gen BIGINT NOT NULL DEFAULT 0;
ALTER TABLE nodes ADD COLUMN released BIGINT NOT NULL DEFAULT 0;
