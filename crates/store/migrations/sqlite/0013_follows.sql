-- Who follows whom (issue 30, friends): one row per follow, the friends
-- list read by the follower. The index on the followed serves "who
-- follows me" and removing an account's rows.
CREATE TABLE follows (
    follower_id  TEXT NOT NULL REFERENCES users(id),
    followed_id  TEXT NOT NULL REFERENCES users(id),
    created_ms   BIGINT NOT NULL,
    PRIMARY KEY (follower_id, followed_id)
);
CREATE INDEX follows_followed ON follows(followed_id);
