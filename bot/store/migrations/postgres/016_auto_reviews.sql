-- Reviews made by themselves (issue 23): see the SQLite twin.
CREATE TABLE auto_reviews (
    game_id BIGINT NOT NULL PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    outcome TEXT   NOT NULL
           CHECK (outcome IN ('reviewed', 'too old', 'unreadable', 'nothing kept')),
    done_at DOUBLE PRECISION NOT NULL
);
