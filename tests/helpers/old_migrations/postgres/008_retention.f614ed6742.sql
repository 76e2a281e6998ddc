-- Retention (see migrations/sqlite/008_retention.sql): a game that ended more than
-- RETENTION_DAYS ago keeps its row, seats, results and ratings, and one compact record that
-- replays it; its snapshot, action rows, messages and DM notes are dropped.

CREATE TABLE game_archives (
    game_id BIGINT NOT NULL PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    record  BYTEA  NOT NULL
);

ALTER TABLE games ADD COLUMN pruned_at DOUBLE PRECISION;

CREATE INDEX games_to_prune ON games (updated_at)
    WHERE pruned_at IS NULL AND status IN ('finished', 'cancelled', 'expired');
