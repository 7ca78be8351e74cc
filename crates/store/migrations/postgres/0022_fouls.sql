-- Fouls (犯规) an event's arbiter records (issue 28; seed 000 9.1–9.2:
-- 凡判处犯规裁判员应当当场明确宣布并及时记录): one row per foul, with the
-- round, the player, why, who recorded it and when. They feed the
-- tie-breaks that name them: a player's 犯规 (15.1, 15.2) and a team's
-- 全队犯规, its players' fouls together (15.3–15.5).
CREATE TABLE event_fouls (
    event_id     TEXT NOT NULL REFERENCES events(id),
    seq          BIGINT NOT NULL,             -- 1, 2, … in the order recorded
    round        BIGINT NOT NULL,
    user_id      TEXT NOT NULL REFERENCES users(id),
    reason       TEXT NOT NULL,
    by_id        TEXT NOT NULL REFERENCES users(id),
    recorded_ms  BIGINT NOT NULL,
    PRIMARY KEY (event_id, seq)
);

-- A team event's line-ups (seed 000 12.2–12.3): 0, in roster order (12.2:
-- 台次顺序不能前后颠倒); 1, in any order the captain fixes before each
-- match (12.3 临时定台制).
ALTER TABLE events ADD COLUMN lineups_any_order BIGINT NOT NULL DEFAULT 0;
