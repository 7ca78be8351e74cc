-- Bot accounts (issue 32, lichess's Bot API): an account upgraded with
-- `POST /api/bot/account/upgrade` is a bot for good — titled BOT, it plays
-- through the API and is served lichess's form of the shared paths.
ALTER TABLE users ADD COLUMN bot BIGINT NOT NULL DEFAULT 0;
