-- When each player was last known to be a member of a server (an interaction from that server,
-- or Discord's answer when asked): every process of the bot reads it before asking Discord
-- again, so a DM move on one process needs no request when another saw the player lately.
CREATE TABLE members_seen (
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    seen_at  REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
