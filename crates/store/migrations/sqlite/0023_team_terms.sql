-- A team event's further terms (issue 28; seed 000): `team_all_play_all`,
-- each match played 全队轮赛制 (12.4: every player of one team meets
-- every player of the other, one part of the match a round) rather than
-- board against board; `team_ranking_places`, the teams ranked 队员总分制
-- (15.5: by the sum of their players' individual places) rather than by
-- match points. 0 for every other event.
ALTER TABLE events ADD COLUMN team_all_play_all BIGINT NOT NULL DEFAULT 0;
ALTER TABLE events ADD COLUMN team_ranking_places BIGINT NOT NULL DEFAULT 0;
