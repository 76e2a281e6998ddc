-- A review of each seat's decisions in a game (issue 23), made in the worker process on first
-- asking and kept here: a finished game's review never changes; one of a game still going
-- covers the deals done when it was made (`deals`) and is made again once more are done.
-- `decisions`, `accurate` (within a small margin of the expert's best) and `given_up` (the
-- expected points given up in all) are the figures `/cribbage stats` adds up; `data` is the
-- review itself as JSON (engine.review.GameReview).
CREATE TABLE reviews (
    game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    user_id   INTEGER,
    guild_id  INTEGER,
    deals     INTEGER NOT NULL,
    final     INTEGER NOT NULL DEFAULT 0,
    decisions INTEGER NOT NULL,
    accurate  INTEGER NOT NULL,
    given_up  REAL    NOT NULL,
    data      TEXT    NOT NULL,
    made_at   REAL    NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX reviews_by_player ON reviews (user_id, guild_id, made_at) WHERE final = 1;
