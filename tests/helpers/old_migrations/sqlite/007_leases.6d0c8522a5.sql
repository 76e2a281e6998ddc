-- Leases: work one of the bot's processes may start once in a while for the whole bot, such as
-- starting a gateway session within Discord's IDENTIFY limit (one per rate-limit key every
-- 5 seconds, across every process of the bot). A lease is held until `expires_at` (seconds
-- since the epoch) and lapses by itself; its holder may renew it, anyone may take a lapsed one.
CREATE TABLE leases (
    name       TEXT NOT NULL PRIMARY KEY,
    holder     TEXT NOT NULL,
    expires_at REAL NOT NULL
);
