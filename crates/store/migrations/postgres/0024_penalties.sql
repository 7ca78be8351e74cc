-- Disciplinary penalties (seed 000 18.1 警告, a warning; 18.2 取消当场比赛资格,
-- a disqualification from a game) are an arbiter's rulings against a player
-- as fouls are, kept beside them: `kind` says which. 18.4 ranks the
-- penalised last among equal scores; a foul (犯规, 9.1) counts only where a
-- tie-break names it.
ALTER TABLE event_fouls ADD COLUMN kind TEXT NOT NULL DEFAULT 'foul';
