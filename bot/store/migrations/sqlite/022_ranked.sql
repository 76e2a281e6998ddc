-- Ranked play across servers (issue 49): each player's entry (their search, then their match)
-- at the place they queued from, the matches between two entries and their games, each
-- season's ratings and every match's rating changes, and the blocks between players.
--
-- A player has one live entry at most (searching, or in a match): the partial unique index
-- refuses a second, whichever process asks. An entry is paired once: the transaction that pairs
-- two takes each from 'searching' to 'matched', naming the match, or takes neither.
--
-- It only adds, but it does not say older releases run beside it: a release before it knows
-- nothing of the games played apart (a channel below zero) or of the ranked messages' owners.
-- Ranked play opens only once no process of such a release is heard from (docs/running.md).

CREATE TABLE ranked_entries (
    id            INTEGER PRIMARY KEY,
    user_id       INTEGER NOT NULL,
    name          TEXT    NOT NULL,   -- as the opponent will see it
    avatar        TEXT,               -- the picture's address on Discord's CDN
    guild_id      INTEGER,            -- the place: a server (NULL: a DM or group DM)
    channel_id    INTEGER NOT NULL,
    place         TEXT    NOT NULL CHECK (place IN ('server', 'private', 'bot_dm')),
    status        TEXT    NOT NULL DEFAULT 'searching'
                  CHECK (status IN ('searching', 'matched', 'done', 'stopped', 'expired')),
    mu            REAL    NOT NULL,   -- the skill the search matches on
    last_opponent INTEGER,            -- never met twice in a row
    queued_at     REAL    NOT NULL,
    match_id      INTEGER,
    ended_at      REAL,
    version       INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX ranked_one_live_entry
    ON ranked_entries (user_id) WHERE status IN ('searching', 'matched');
CREATE INDEX ranked_searching ON ranked_entries (mu) WHERE status = 'searching';
CREATE INDEX ranked_entries_of_user ON ranked_entries (user_id, id);

CREATE TABLE ranked_matches (
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
    how          TEXT CHECK (how IS NULL OR how IN ('games', 'left')),
    abandoned_by INTEGER,
    season       TEXT,                         -- 'YYYY-MM', the season it was rated in
    started_at   REAL    NOT NULL,
    ended_at     REAL
);
CREATE INDEX ranked_matches_playing ON ranked_matches (status) WHERE status = 'playing';
CREATE INDEX ranked_matches_a ON ranked_matches (player_a, ended_at);
CREATE INDEX ranked_matches_b ON ranked_matches (player_b, ended_at);

CREATE TABLE ranked_games (
    match_id INTEGER NOT NULL REFERENCES ranked_matches (id),
    number   INTEGER NOT NULL CHECK (number BETWEEN 1 AND 3),
    game_id  INTEGER NOT NULL UNIQUE,
    winner   INTEGER,            -- once counted
    ended_by TEXT,               -- 'play', 'resigned', 'clock' or 'left'
    PRIMARY KEY (match_id, number)
);

CREATE TABLE ranked_ratings (
    season     TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    ordinal    REAL    NOT NULL,  -- mu - 3 sigma, which ranks the ladder
    matches    INTEGER NOT NULL DEFAULT 0,
    wins       INTEGER NOT NULL DEFAULT 0,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (season, user_id)
);
CREATE INDEX ranked_ratings_ladder ON ranked_ratings (season, ordinal DESC);
CREATE INDEX ranked_ratings_of_user ON ranked_ratings (user_id, season);

CREATE TABLE ranked_changes (
    match_id     INTEGER NOT NULL REFERENCES ranked_matches (id),
    user_id      INTEGER NOT NULL,
    season       TEXT    NOT NULL,
    mu_before    REAL    NOT NULL,
    sigma_before REAL    NOT NULL,
    mu_after     REAL    NOT NULL,
    sigma_after  REAL    NOT NULL,
    PRIMARY KEY (match_id, user_id)
);
CREATE INDEX ranked_changes_of_user ON ranked_changes (user_id, match_id);

CREATE TABLE ranked_blocks (
    user_id    INTEGER NOT NULL,
    blocked_id INTEGER NOT NULL,
    name       TEXT    NOT NULL,  -- the blocked player's name when blocked
    at         REAL    NOT NULL,
    PRIMARY KEY (user_id, blocked_id)
);
CREATE INDEX ranked_blocked ON ranked_blocks (blocked_id);
