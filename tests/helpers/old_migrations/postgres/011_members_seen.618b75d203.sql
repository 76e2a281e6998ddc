-- When each player was last known to be a member of a server (see migrations/sqlite/011).
CREATE TABLE members_seen (
    guild_id BIGINT           NOT NULL,
    user_id  BIGINT           NOT NULL,
    seen_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
