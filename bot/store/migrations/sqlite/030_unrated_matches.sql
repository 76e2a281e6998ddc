-- older releases: run beside it
-- A ranked match may end without a result (ranked_matches.how 'cancelled', the games' own word
-- for it: bot/core/ranked/records.py NOT_RATED): the bot was down too long to reach one of its
-- players (bot/core/ranked/reach.py). Such a match has no winner, no season and no rating
-- change, and nobody abandoned it. Only the CHECK on `how` widens: every value a release
-- before this one writes is still allowed, so it may run beside it (it draws such a match as
-- one without a winner).
--
-- SQLite cannot change a CHECK in place, so ranked_matches is made again as SQLite's
-- documentation says (https://www.sqlite.org/lang_altertable.html, "Making Other Kinds Of
-- Table Schema Changes"), in the one transaction the migration runs in, as 020 did for games.
-- Foreign keys stay on: ranked_games and ranked_changes refer to ranked_matches, so both are
-- made again first, referring to the new table (its rename then renames their REFERENCES),
-- before any old table is dropped. Every row is copied as it is, the columns keep their
-- order, and the indexes are made again.

CREATE TABLE ranked_matches_new (
    id           INTEGER PRIMARY KEY,
    entry_a      INTEGER NOT NULL UNIQUE REFERENCES ranked_entries (id),
    entry_b      INTEGER NOT NULL UNIQUE REFERENCES ranked_entries (id),
    player_a     INTEGER NOT NULL,
    player_b     INTEGER NOT NULL CHECK (player_b <> player_a),
    status       TEXT    NOT NULL DEFAULT 'playing' CHECK (status IN ('playing', 'finished')),
    wins_a       INTEGER NOT NULL DEFAULT 0,
    wins_b       INTEGER NOT NULL DEFAULT 0,
    games        INTEGER NOT NULL DEFAULT 0,  -- games opened
    game_id      INTEGER,                      -- the latest
    winner       INTEGER,
    how          TEXT CHECK (how IS NULL OR how IN ('games', 'left', 'cancelled')),
    abandoned_by INTEGER,
    season       TEXT,                         -- 'YYYY-MM', the season it was rated in
    started_at   REAL    NOT NULL,
    ended_at     REAL
);
INSERT INTO ranked_matches_new SELECT * FROM ranked_matches;

CREATE TABLE ranked_games_new (
    match_id INTEGER NOT NULL REFERENCES ranked_matches_new (id),
    number   INTEGER NOT NULL CHECK (number BETWEEN 1 AND 3),
    game_id  INTEGER NOT NULL UNIQUE,
    winner   INTEGER,            -- once counted
    ended_by TEXT,               -- read no more (023_endings)
    PRIMARY KEY (match_id, number)
);
INSERT INTO ranked_games_new SELECT * FROM ranked_games;

CREATE TABLE ranked_changes_new (
    match_id     INTEGER NOT NULL REFERENCES ranked_matches_new (id),
    user_id      INTEGER NOT NULL,
    season       TEXT    NOT NULL,
    mu_before    REAL    NOT NULL,
    sigma_before REAL    NOT NULL,
    mu_after     REAL    NOT NULL,
    sigma_after  REAL    NOT NULL,
    PRIMARY KEY (match_id, user_id)
);
INSERT INTO ranked_changes_new SELECT * FROM ranked_changes;

DROP TABLE ranked_games;
DROP TABLE ranked_changes;
DROP TABLE ranked_matches;
ALTER TABLE ranked_matches_new RENAME TO ranked_matches;
ALTER TABLE ranked_games_new RENAME TO ranked_games;
ALTER TABLE ranked_changes_new RENAME TO ranked_changes;

CREATE INDEX ranked_matches_playing ON ranked_matches (status) WHERE status = 'playing';
CREATE INDEX ranked_matches_a ON ranked_matches (player_a, ended_at);
CREATE INDEX ranked_matches_b ON ranked_matches (player_b, ended_at);
CREATE INDEX ranked_changes_of_user ON ranked_changes (user_id, match_id);
