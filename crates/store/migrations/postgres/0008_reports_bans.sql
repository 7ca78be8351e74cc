-- Players an operator banned (`qiju admin ban NAME`): they cannot log in.
ALTER TABLE users ADD COLUMN banned BIGINT NOT NULL DEFAULT 0;
-- Chat lines players reported (the report button), for the operator's
-- `qiju admin reports`.
CREATE TABLE reports (
    id TEXT PRIMARY KEY,
    reporter_id TEXT NOT NULL REFERENCES users(id),
    reported_id TEXT NOT NULL REFERENCES users(id),
    context TEXT NOT NULL,
    text TEXT NOT NULL,
    created_ms BIGINT NOT NULL
);
CREATE INDEX reports_by_time ON reports(created_ms);
CREATE INDEX reports_by_reporter ON reports(reporter_id, created_ms);
