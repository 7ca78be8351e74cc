-- What each name looks like (UTS 39 confusable skeleton, names.rs): a new
-- name that reads like an existing one is refused. Filled in by the
-- server for existing accounts at its first start after this migration.
ALTER TABLE users ADD COLUMN name_skeleton TEXT;
CREATE INDEX users_name_skeleton ON users (name_skeleton);
