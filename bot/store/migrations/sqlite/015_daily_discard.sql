-- The discard of the day (issue 23): each server's secret, from which its six cards and seat
-- of each day follow (so nobody can work out tomorrow's), and each person's one answer a day.
CREATE TABLE daily_secrets (
    guild_id INTEGER PRIMARY KEY,
    secret   TEXT    NOT NULL
);
-- `day` is the UTC date (YYYY-MM-DD); `thrown` the two cards' codes; `points` the expected
-- points of the choice, `best` those of the best, `rank` its place among the fifteen (1 best).
CREATE TABLE daily_answers (
    guild_id    INTEGER NOT NULL,
    day         TEXT    NOT NULL,
    user_id     INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    thrown      TEXT    NOT NULL,
    points      REAL    NOT NULL,
    best        REAL    NOT NULL,
    rank        INTEGER NOT NULL,
    answered_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, day, user_id)
);
CREATE INDEX daily_answers_by_user ON daily_answers (guild_id, user_id, day);
