-- Reviews made by themselves (issue 23): once a game is finished, the process that sends
-- reviews each person's decisions in it in the background (bot.core.auto_reviews), so
-- `/cribbage stats` adds up the latest games, not only those someone opened. A row here says
-- the game needs nothing more: its reviews were made (`outcome` 'reviewed'), or it cannot be
-- reviewed ('too old': begun before shuffles were recorded; 'unreadable': its snapshot cannot
-- be read; 'nothing kept': neither a snapshot nor an archive record to deal it again from).
-- A finished game without a row is owed its reviews, also after a restart.
CREATE TABLE auto_reviews (
    game_id INTEGER NOT NULL PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    outcome TEXT    NOT NULL
            CHECK (outcome IN ('reviewed', 'too old', 'unreadable', 'nothing kept')),
    done_at REAL    NOT NULL
);
