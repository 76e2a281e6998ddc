-- Retention (issue 10): a game that ended more than RETENTION_DAYS ago keeps its row, its
-- seats, its results and ratings, and one compact record enough to replay it
-- (bot.core.archive: the options, every shuffle and the action log, zlib-compressed JSON);
-- its snapshot, action rows, messages and DM notes are dropped (pruned_at says when).

CREATE TABLE game_archives (
    game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    record  BLOB    NOT NULL
);

ALTER TABLE games ADD COLUMN pruned_at REAL;

-- The games a pruning pass looks for, oldest first, without passing the ones already pruned.
CREATE INDEX games_to_prune ON games (updated_at)
    WHERE pruned_at IS NULL AND status IN ('finished', 'cancelled', 'expired');
