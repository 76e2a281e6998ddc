-- Leases: work that exactly one of the bot's processes may do at a time (see
-- migrations/sqlite/007_leases.sql).
CREATE TABLE leases (
    name       TEXT NOT NULL PRIMARY KEY,
    holder     TEXT NOT NULL,
    expires_at DOUBLE PRECISION NOT NULL
);
