-- Messages belong to owners, not only to games (issue 20): a game ("game:12") today, and next a
-- tournament's live standings or a league board. Each owner keeps its messages under stable
-- keys ("lobby", "table:3", "hand:3:1"), with their Discord ids, a digest of what they last
-- showed, and the interaction token that may still edit them.

CREATE TABLE messages (
    owner          TEXT    NOT NULL,  -- "kind:id", e.g. "game:12"
    key            TEXT    NOT NULL,
    channel_id     INTEGER NOT NULL,
    message_id     INTEGER NOT NULL,  -- 0 until known: an interaction's answer, reached by its token
    digest         TEXT    NOT NULL,  -- '' when what it shows is not known (edit it once)
    token          TEXT,
    token_at       REAL,
    token_original INTEGER NOT NULL DEFAULT 0,
    shown_version  INTEGER NOT NULL DEFAULT 0,
    -- Set while the look is a click's answer, kept with its move, not yet known to have
    -- reached Discord (cleared once it has).
    unconfirmed_since REAL,
    PRIMARY KEY (owner, key)
);
INSERT INTO messages (owner, key, channel_id, message_id, digest, token, token_at,
                      token_original, shown_version)
    SELECT 'game:' || game_id, key, channel_id, message_id, digest, token, token_at,
           token_original, shown_version
    FROM game_messages;
DROP TABLE game_messages;

CREATE TABLE owner_pending_posts (
    owner      TEXT    NOT NULL,
    key        TEXT    NOT NULL,
    channel_id INTEGER NOT NULL,
    since      REAL    NOT NULL,
    PRIMARY KEY (owner, key)
);
INSERT INTO owner_pending_posts (owner, key, channel_id, since)
    SELECT 'game:' || game_id, key, channel_id, since FROM pending_posts;
DROP TABLE pending_posts;
ALTER TABLE owner_pending_posts RENAME TO pending_posts;
