-- The discard of the day (issue 23): see the SQLite twin.
CREATE TABLE daily_secrets (
    guild_id BIGINT PRIMARY KEY,
    secret   TEXT   NOT NULL
);
CREATE TABLE daily_answers (
    guild_id    BIGINT  NOT NULL,
    day         TEXT    NOT NULL,
    user_id     BIGINT  NOT NULL,
    name        TEXT    NOT NULL,
    thrown      TEXT    NOT NULL,
    points      DOUBLE PRECISION NOT NULL,
    best        DOUBLE PRECISION NOT NULL,
    rank        INTEGER NOT NULL,
    answered_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, day, user_id)
);
CREATE INDEX daily_answers_by_user ON daily_answers (guild_id, user_id, day);
