-- The messages a game owns (issue 9): each is a view of the stored game, kept by a stable key
-- ("lobby", "table:3", "hand:3:1", ...) with its Discord id and a digest of what it last
-- showed, so the bot sends only what differs and, after a crash, finds what it still owes.

CREATE TABLE game_messages (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    key        TEXT    NOT NULL,
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    digest     TEXT    NOT NULL,  -- '' when what it shows is not known (edit it once)
    -- An interaction whose webhook may edit this message, outside the bot's global rate
    -- limit, until 15 minutes after it: the one it is a follow-up of, or (token_original = 1)
    -- the latest click on it, whose "original response" the message then is.
    token          TEXT,
    token_at       REAL,
    token_original INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, key)
);

-- The lobby message's id moves there.
INSERT INTO game_messages (game_id, key, channel_id, message_id, digest)
    SELECT id, 'lobby', channel_id, lobby_message_id, '' FROM games
    WHERE lobby_message_id IS NOT NULL;
ALTER TABLE games DROP COLUMN lobby_message_id;

-- Why a game without a result ended, as the channel is told (cancelled, expired).
ALTER TABLE games ADD COLUMN end_note TEXT;

-- A player whose DMs Discord refused (50007) in a deal: no more DMs to them in that deal, and
-- the channel is told once (remembered here, so a restart does not tell it again).
CREATE TABLE dm_refusals (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat    INTEGER NOT NULL,
    deal    INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);

-- Per user: the DM channel with them, and their latest interaction in it (its webhook posts
-- follow-ups there, outside the global rate limit, for 15 minutes).
CREATE TABLE dm_links (
    user_id    INTEGER PRIMARY KEY,
    channel_id INTEGER,
    token      TEXT,
    token_at   REAL
);
