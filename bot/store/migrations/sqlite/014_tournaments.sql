-- Server tournaments (issue 22): an event in a channel, its entrants, and each round's pairings
-- with their threads, games and results. A round is paired in one transaction that moves the
-- tournament's round on with a check, so it is never paired twice; each pairing's thread and
-- game are written as they are made, so a start after a kill carries on where it stopped.

CREATE TABLE tournaments (
    id             INTEGER PRIMARY KEY,
    guild_id       INTEGER NOT NULL,
    channel_id     INTEGER NOT NULL,
    organiser_id   INTEGER NOT NULL,
    format         TEXT    NOT NULL CHECK (format IN ('swiss', 'round_robin', 'knockout')),
    rounds         INTEGER NOT NULL DEFAULT 0,  -- 0: from the entrants when it starts
    target         INTEGER NOT NULL CHECK (target IN (61, 121)),
    scoring        TEXT    NOT NULL CHECK (scoring IN ('lurch', 'skunk')),
    match_games    INTEGER NOT NULL DEFAULT 1 CHECK (match_games IN (1, 3)),
    playoff        INTEGER NOT NULL DEFAULT 0 CHECK (playoff IN (0, 4, 8)),
    round_hours    REAL    NOT NULL,
    status         TEXT    NOT NULL DEFAULT 'open'
                   CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
    round          INTEGER NOT NULL DEFAULT 0,  -- the round being played (0: not started)
    round_started  REAL,
    version        INTEGER NOT NULL DEFAULT 0,
    created_at     REAL    NOT NULL,
    champion_id    INTEGER,           -- once finished
    finished_at    REAL
);
-- At most one tournament open or running per channel.
CREATE UNIQUE INDEX tournaments_one_per_channel
    ON tournaments (channel_id) WHERE status IN ('open', 'running');

CREATE TABLE tournament_entrants (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    seed          INTEGER NOT NULL,  -- the order they joined in
    withdrawn     INTEGER,           -- the round they withdrew in (NULL: still in)
    PRIMARY KEY (tournament_id, user_id)
);

CREATE TABLE tournament_pairings (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL,
    tab           INTEGER NOT NULL,  -- the table's number in the round, from 1
    player_a      INTEGER NOT NULL,
    player_b      INTEGER,           -- NULL: a bye for player_a
    post_id       INTEGER,           -- the channel message the thread starts from
    thread_id     INTEGER,
    game_id       INTEGER,
    wins_a        INTEGER NOT NULL DEFAULT 0,  -- games won in a best of 3
    wins_b        INTEGER NOT NULL DEFAULT 0,
    spread_a      INTEGER NOT NULL DEFAULT 0,  -- player_a's margins so far, won minus lost
    decided       TEXT CHECK (decided IS NULL
                  OR decided IN ('game', 'bye', 'forfeit', 'deadline', 'withdrawn', 'moderator')),
    winner        INTEGER,           -- NULL once decided: both lost
    lurch         INTEGER NOT NULL DEFAULT 0,
    margin        INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, round, tab)
);
CREATE INDEX tournament_pairings_game ON tournament_pairings (game_id);

-- Seasons (the same issue): a server's results by the time their game finished, for a calendar
-- month's leaderboard and the hall of fame's champions.
CREATE INDEX results_by_time ON results (guild_id, finished_at);
