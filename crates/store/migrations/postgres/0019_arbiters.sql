-- Arbiters besides the organiser (issue 28): the organiser names them, and
-- they hold the arbiter's tools for that event (pairing, results, players,
-- pause); naming and unnaming are the organiser's alone and logged.
CREATE TABLE event_arbiters (
    event_id   TEXT NOT NULL REFERENCES events(id),
    user_id    TEXT NOT NULL REFERENCES users(id),
    added_ms   BIGINT NOT NULL,
    PRIMARY KEY (event_id, user_id)
);
