-- Games, their seats, the action log and the results the leaderboard and stats read.
-- Times are UTC seconds since the epoch (REAL).

CREATE TABLE games (
    id               INTEGER PRIMARY KEY,
    guild_id         INTEGER,
    channel_id       INTEGER NOT NULL,
    status           TEXT    NOT NULL DEFAULT 'lobby'
                     CHECK (status IN ('lobby', 'active', 'finished', 'cancelled', 'expired')),
    creator_id       INTEGER NOT NULL,
    num_players      INTEGER NOT NULL CHECK (num_players BETWEEN 2 AND 4),
    target           INTEGER NOT NULL CHECK (target IN (61, 121)),
    vs_computer      INTEGER NOT NULL DEFAULT 0,
    lobby_message_id INTEGER,
    -- JSON: the engine state (deck order included) plus the running per-seat tallies
    snapshot         TEXT,
    version          INTEGER NOT NULL DEFAULT 0,
    created_at       REAL    NOT NULL,
    updated_at       REAL    NOT NULL
);

-- One open game per channel or thread: a second one fails here even if two processes race.
CREATE UNIQUE INDEX games_one_open_per_channel
    ON games (channel_id) WHERE status IN ('lobby', 'active');
CREATE INDEX games_open_by_age ON games (status, updated_at);

CREATE TABLE seats (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    user_id      INTEGER,
    display_name TEXT    NOT NULL,
    is_computer  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id)
);

CREATE TABLE actions (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq     INTEGER NOT NULL,
    action  TEXT    NOT NULL,  -- JSON, as the engine logs it
    at      REAL    NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE results (
    game_id         INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    guild_id        INTEGER,
    seat            INTEGER NOT NULL,
    user_id         INTEGER,
    display_name    TEXT    NOT NULL,
    is_computer     INTEGER NOT NULL DEFAULT 0,
    vs_computer     INTEGER NOT NULL DEFAULT 0,
    won             INTEGER NOT NULL,
    game_points     INTEGER NOT NULL,  -- of the result, for winners and losers alike
    skunk_given     INTEGER NOT NULL DEFAULT 0,
    skunk_taken     INTEGER NOT NULL DEFAULT 0,
    score           INTEGER NOT NULL,  -- this player's side at the end
    final_scores    TEXT    NOT NULL,  -- every side, e.g. "121-84"
    reason          TEXT    NOT NULL,  -- 'target' or 'resigned'
    pegging_points  INTEGER NOT NULL DEFAULT 0,
    hand_points     INTEGER NOT NULL DEFAULT 0,
    crib_points     INTEGER NOT NULL DEFAULT 0,
    deals           INTEGER NOT NULL DEFAULT 0,
    best_hand       INTEGER NOT NULL DEFAULT 0,
    best_hand_cards TEXT,
    twenty_nines    INTEGER NOT NULL DEFAULT 0,
    finished_at     REAL    NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX results_by_player ON results (guild_id, user_id);
