-- Leases: work one of the bot's processes may start once in a while for the whole bot (see
-- migrations/sqlite/007_leases.sql).
CREATE TABLE leases (
    name       TEXT NOT NULL PRIMARY KEY,
    holder     TEXT NOT NULL,
    expires_at DOUBLE PRECISION NOT NULL
);
