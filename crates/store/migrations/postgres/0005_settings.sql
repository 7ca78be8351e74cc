-- A player's board settings (theme, piece set, coordinates), as the JSON
-- object `PUT /api/account/settings` accepted; NULL: the defaults.
ALTER TABLE users ADD COLUMN settings TEXT;
