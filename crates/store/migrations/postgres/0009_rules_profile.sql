-- Whose tool a game's session rules are (registry::Profile): `online`
-- refuses what would be a foul; `arbiter` applies the rule book's fouls
-- and penalties. Games stored before this were all played as `arbiter`.
ALTER TABLE games ADD COLUMN rules_profile TEXT NOT NULL DEFAULT 'arbiter';
