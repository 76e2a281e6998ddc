-- Leases: work one of the bot's processes may start once in a while for the whole bot (see
-- migrations/sqlite/007_leases.sql).
CREATE TABLE leases (
    name       TEXT NOT NULL PRIMARY KEY,
    holder     TEXT NOT NULL,
    expires_at DOUBLE PRECISION NOT NULL
);

-- The game's version each message's look was drawn at (see the SQLite twin).
ALTER TABLE game_messages ADD COLUMN shown_version INTEGER NOT NULL DEFAULT 0;
