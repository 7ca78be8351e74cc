-- Players an operator muted (`qiju admin mute NAME`): their chat reaches
-- nobody but themselves.
ALTER TABLE users ADD COLUMN muted BIGINT NOT NULL DEFAULT 0;
