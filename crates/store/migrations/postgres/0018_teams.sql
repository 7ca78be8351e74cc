-- Team events and knockout races (issue 28; team round robin: seed 000 articles 12–15): an
-- event's board count and how many substitutes a roster may add; each
-- team with its captain; its roster in board order (12.1: positions
-- 1..boards are the regular boards, the rest substitutes, 12.2); and the
-- line-up a captain hands in for one round's match before it is paired
-- (12.3). Every roster member is also an entry (event_entries), so the
-- boards of a match are ordinary pairings between entry numbers.
ALTER TABLE events ADD COLUMN boards BIGINT NOT NULL DEFAULT 0;
ALTER TABLE events ADD COLUMN substitutes BIGINT NOT NULL DEFAULT 0;
-- A knockout's race: a match goes on until a player has won this many
-- games (0: the match is match_games games; seed 001's gomoku: 3).
ALTER TABLE events ADD COLUMN first_to BIGINT NOT NULL DEFAULT 0;
-- Entry only with at least this many rated games in the variant's pool.
ALTER TABLE events ADD COLUMN min_rated_games BIGINT NOT NULL DEFAULT 0;

CREATE TABLE event_teams (
    event_id       TEXT NOT NULL REFERENCES events(id),
    number         BIGINT NOT NULL,           -- the team's number (the Berger table's)
    name           TEXT NOT NULL,
    captain_id     TEXT NOT NULL REFERENCES users(id),
    registered_ms  BIGINT NOT NULL,
    PRIMARY KEY (event_id, number)
);
CREATE UNIQUE INDEX event_teams_name ON event_teams(event_id, name);

CREATE TABLE event_team_members (
    event_id   TEXT NOT NULL REFERENCES events(id),
    team       BIGINT NOT NULL,
    position   BIGINT NOT NULL,               -- 1-based roster position: board order, then substitutes
    user_id    TEXT NOT NULL REFERENCES users(id),
    PRIMARY KEY (event_id, team, position)
);
CREATE UNIQUE INDEX event_team_members_user ON event_team_members(event_id, user_id);

CREATE TABLE event_lineups (
    event_id      TEXT NOT NULL REFERENCES events(id),
    round         BIGINT NOT NULL,
    team          BIGINT NOT NULL,
    positions     TEXT NOT NULL,              -- roster positions, board 1 first: 1,2,3,5
    submitted_ms  BIGINT NOT NULL,
    PRIMARY KEY (event_id, round, team)
);
