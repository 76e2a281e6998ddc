-- Messages belong to owners, not only to games (issue 20): a game ("game:12") today, and next a
-- tournament's live standings or a league board. See the SQLite twin for the columns.

CREATE TABLE messages (
    owner          TEXT    NOT NULL,
    key            TEXT    NOT NULL,
    channel_id     BIGINT  NOT NULL,
    message_id     BIGINT  NOT NULL,
    digest         TEXT    NOT NULL,
    token          TEXT,
    token_at       DOUBLE PRECISION,
    token_original INTEGER NOT NULL DEFAULT 0,
    shown_version  INTEGER NOT NULL DEFAULT 0,
    unconfirmed_since DOUBLE PRECISION,
    PRIMARY KEY (owner, key)
);
INSERT INTO messages (owner, key, channel_id, message_id, digest, token, token_at,
                      token_original, shown_version)
    SELECT 'game:' || game_id, key, channel_id, message_id, digest, token, token_at,
           token_original, shown_version
    FROM game_messages;
DROP TABLE game_messages;

CREATE TABLE owner_pending_posts (
    owner      TEXT   NOT NULL,
    key        TEXT   NOT NULL,
    channel_id BIGINT NOT NULL,
    since      DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (owner, key)
);
INSERT INTO owner_pending_posts (owner, key, channel_id, since)
    SELECT 'game:' || game_id, key, channel_id, since FROM pending_posts;
DROP TABLE pending_posts;
ALTER TABLE owner_pending_posts RENAME TO pending_posts;
ALTER INDEX owner_pending_posts_pkey RENAME TO pending_posts_pkey;
