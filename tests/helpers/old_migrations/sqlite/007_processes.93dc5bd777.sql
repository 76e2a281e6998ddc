-- Leases: work one of the bot's processes may start once in a while for the whole bot, such as
-- starting a gateway session within Discord's IDENTIFY limit (one per rate-limit key every
-- 5 seconds, across every process of the bot). A lease is held until `expires_at` (seconds
-- since the epoch) and lapses by itself; its holder may renew it, anyone may take a lapsed one.
CREATE TABLE leases (
    name       TEXT NOT NULL PRIMARY KEY,
    holder     TEXT NOT NULL,
    expires_at REAL NOT NULL
);

-- The game's version each message's look was drawn at. Two processes may update one message
-- (the one that answers a click on it, the one that sends), and what either keeps must not
-- replace what the other kept of a later version.
ALTER TABLE game_messages ADD COLUMN shown_version INTEGER NOT NULL DEFAULT 0;
