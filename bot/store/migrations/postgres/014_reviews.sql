-- A review of each seat's decisions in a game (issue 23): see the SQLite twin.
CREATE TABLE reviews (
    game_id   BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    user_id   BIGINT,
    guild_id  BIGINT,
    deals     INTEGER NOT NULL,
    final     INTEGER NOT NULL DEFAULT 0,
    decisions INTEGER NOT NULL,
    accurate  INTEGER NOT NULL,
    given_up  DOUBLE PRECISION NOT NULL,
    data      TEXT    NOT NULL,
    made_at   DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX reviews_by_player ON reviews (user_id, guild_id, made_at) WHERE final = 1;
