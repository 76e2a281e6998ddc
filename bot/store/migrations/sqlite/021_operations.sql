-- older releases: run beside it
-- Operations (issue 50): what each running process last said of itself, the servers the bot
-- has left (their data goes after a grace period), and which migrations a release before
-- them may run beside.
--
-- This migration only adds: the release before it runs on a database it has migrated (an
-- upgrade, one process at a time, runs the two side by side). Its first line says so, and
-- bot/store/migrate.py records it in schema_migrations.beside_older: a later release's
-- migration recorded so is no reason for an older release to refuse the database.

-- Each running process of the bot, written by itself every few seconds (its heartbeat) and
-- removed when it stops cleanly; `python -m bot health` reads them.
CREATE TABLE bot_processes (
    holder     TEXT    NOT NULL PRIMARY KEY,  -- host:pid:random, as its leases name it
    host       TEXT    NOT NULL,
    pid        INTEGER NOT NULL,
    shards     TEXT    NOT NULL,              -- the shards it runs ('0,1'), or 'all'
    release    TEXT    NOT NULL,              -- the last migration its release has
    started_at REAL    NOT NULL,
    seen_at    REAL    NOT NULL,
    gateway    INTEGER NOT NULL DEFAULT 0 CHECK (gateway IN (0, 1)),  -- connected to Discord
    sender     INTEGER NOT NULL DEFAULT 0 CHECK (sender IN (0, 1))    -- sends every message
);

-- The servers the bot was removed from, and when: their data is deleted once the grace
-- period (LEFT_SERVER_DAYS) has passed, unless the bot is back in them by then.
CREATE TABLE servers_left (
    guild_id INTEGER NOT NULL PRIMARY KEY,
    left_at  REAL    NOT NULL
);

-- A server's games, found at once: a server's data deleted, and the servers data is kept for.
CREATE INDEX games_by_guild ON games (guild_id);

-- Whether a release that does not know the migration may run on a database that applied it
-- (1: it only adds; NULL: not said, as for every migration before this one).
ALTER TABLE schema_migrations ADD COLUMN beside_older INTEGER;
