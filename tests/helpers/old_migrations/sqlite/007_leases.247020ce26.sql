-- Leases: work that exactly one of the bot's processes may do at a time (sending every game's
-- messages within the bot's one global rate limit, expiring idle games, syncing commands;
-- starting a gateway session within Discord's IDENTIFY limit). A process holds a lease until
-- `expires_at` (seconds since the epoch) and renews it while it lives; once it has lapsed
-- another process may take it. A bot run as one process (SQLite) takes every lease itself.
CREATE TABLE leases (
    name       TEXT NOT NULL PRIMARY KEY,
    holder     TEXT NOT NULL,
    expires_at REAL NOT NULL
);
