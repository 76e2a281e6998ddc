-- Variants (issue 35): five-card and seven-card cribbage, five and six players.
--
-- A game keeps the name of its variant (`variant`, a name the engine's registry knows,
-- engine/variants.py; 'standard' for every game before): the core checks it against the
-- registry when a game or a tournament is opened, as it does a tournament's format (018), so
-- no CHECK lists the variants, and a new one needs no migration. Its table may now seat two
-- players or more (five and six: seats from 0 up), and play to any target (181 for seven-card
-- cribbage): the CHECKs that said 2 to 4 players, seats 0 to 3 and a target of 61 or 121 go,
-- the core checking the variant's own. Results, rating changes and standings keep the variant
-- too: each variant is rated apart (docs/players.md), and the standard game's standings keep
-- their rows and ratings as they were (their variant 'standard'). A tournament keeps the
-- variant its games are played in.
--
-- SQLite cannot change a CHECK or a primary key in place, so each table is made again as
-- SQLite's documentation says (https://www.sqlite.org/lang_altertable.html, "Making Other
-- Kinds Of Table Schema Changes"), in the one transaction the migration runs in. Foreign
-- keys stay on (they cannot be turned off inside a transaction), and dropping the old games
-- table would delete every row that refers to it through its ON DELETE CASCADE: so every
-- table that refers to games is made again too, referring to the new table, before any old
-- one is dropped (as 018 did for tournaments). Renaming the new games table then renames it
-- in their REFERENCES. Every row is copied as it is (ids included), the columns keep their
-- order (the new ones last), and the indexes are made again. (A later migration that adds a
-- column to one of these tables must come after this one: it is numbered above 020.)

-- games: any number of players from two, any target, and the variant.
CREATE TABLE games_new (
    id               INTEGER PRIMARY KEY,
    guild_id         INTEGER,
    channel_id       INTEGER NOT NULL,
    status           TEXT    NOT NULL DEFAULT 'lobby'
                     CHECK (status IN ('lobby', 'active', 'finished', 'cancelled', 'expired')),
    creator_id       INTEGER NOT NULL,
    num_players      INTEGER NOT NULL CHECK (num_players >= 2),
    target           INTEGER NOT NULL CHECK (target > 0),
    vs_computer      INTEGER NOT NULL DEFAULT 0,
    snapshot         TEXT,
    version          INTEGER NOT NULL DEFAULT 0,
    created_at       REAL    NOT NULL,
    updated_at       REAL    NOT NULL,
    end_note         TEXT,
    scoring          TEXT    NOT NULL DEFAULT 'skunk' CHECK (scoring IN ('lurch', 'skunk')),
    counting         TEXT    NOT NULL DEFAULT 'auto' CHECK (counting IN ('auto', 'manual')),
    pruned_at        REAL,
    private_table    INTEGER NOT NULL DEFAULT 0 CHECK (private_table IN (0, 1)),
    occasion         TEXT,
    variant          TEXT    NOT NULL DEFAULT 'standard'  -- a registered variant's name
);
INSERT INTO games_new (
    id, guild_id, channel_id, status, creator_id, num_players, target, vs_computer, snapshot,
    version, created_at, updated_at, end_note, scoring, counting, pruned_at, private_table,
    occasion
)
SELECT
    id, guild_id, channel_id, status, creator_id, num_players, target, vs_computer, snapshot,
    version, created_at, updated_at, end_note, scoring, counting, pruned_at, private_table,
    occasion
FROM games;

CREATE TABLE actions_new (
    game_id INTEGER NOT NULL REFERENCES games_new (id) ON DELETE CASCADE,
    seq     INTEGER NOT NULL,
    action  TEXT    NOT NULL,  -- JSON, as the engine logs it
    at      REAL    NOT NULL,
    PRIMARY KEY (game_id, seq)
);
INSERT INTO actions_new (game_id, seq, action, at) SELECT game_id, seq, action, at FROM actions;

-- results: the variant of the game, so that each variant's ratings replay from the results.
CREATE TABLE results_new (
    game_id         INTEGER NOT NULL REFERENCES games_new (id) ON DELETE CASCADE,
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
    points_missed   INTEGER NOT NULL DEFAULT 0,
    muggins_given   INTEGER NOT NULL DEFAULT 0,
    muggins_taken   INTEGER NOT NULL DEFAULT 0,
    rated_order     INTEGER,
    computer_level  TEXT,
    scoring         TEXT    NOT NULL DEFAULT 'skunk' CHECK (scoring IN ('lurch', 'skunk')),
    variant         TEXT    NOT NULL DEFAULT 'standard',
    PRIMARY KEY (game_id, seat)
);
INSERT INTO results_new (
    game_id, guild_id, seat, user_id, display_name, is_computer, vs_computer, won, game_points,
    skunk_given, skunk_taken, score, final_scores, reason, pegging_points, hand_points,
    crib_points, deals, best_hand, best_hand_cards, twenty_nines, finished_at, points_missed,
    muggins_given, muggins_taken, rated_order, computer_level, scoring
)
SELECT
    game_id, guild_id, seat, user_id, display_name, is_computer, vs_computer, won, game_points,
    skunk_given, skunk_taken, score, final_scores, reason, pegging_points, hand_points,
    crib_points, deals, best_hand, best_hand_cards, twenty_nines, finished_at, points_missed,
    muggins_given, muggins_taken, rated_order, computer_level, scoring
FROM results;

CREATE TABLE dm_refusals_new (
    game_id INTEGER NOT NULL REFERENCES games_new (id) ON DELETE CASCADE,
    seat    INTEGER NOT NULL,
    deal    INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);
INSERT INTO dm_refusals_new (game_id, seat, deal) SELECT game_id, seat, deal FROM dm_refusals;

-- rating_changes: the variant whose table the change was made in.
CREATE TABLE rating_changes_new (
    game_id      INTEGER NOT NULL REFERENCES games_new (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL,
    guild_id     INTEGER NOT NULL,
    vs_computer  INTEGER NOT NULL,
    player_id    INTEGER NOT NULL,
    rated_order  INTEGER NOT NULL,
    mu_before    REAL    NOT NULL,
    sigma_before REAL    NOT NULL,
    mu_after     REAL    NOT NULL,
    sigma_after  REAL    NOT NULL,
    finished_at  REAL    NOT NULL,
    variant      TEXT    NOT NULL DEFAULT 'standard',
    PRIMARY KEY (game_id, seat)
);
INSERT INTO rating_changes_new (
    game_id, seat, guild_id, vs_computer, player_id, rated_order, mu_before, sigma_before,
    mu_after, sigma_after, finished_at
)
SELECT
    game_id, seat, guild_id, vs_computer, player_id, rated_order, mu_before, sigma_before,
    mu_after, sigma_after, finished_at
FROM rating_changes;

CREATE TABLE game_archives_new (
    game_id INTEGER NOT NULL PRIMARY KEY REFERENCES games_new (id) ON DELETE CASCADE,
    record  BLOB    NOT NULL
);
INSERT INTO game_archives_new (game_id, record) SELECT game_id, record FROM game_archives;

-- seats: from 0 up (five and six players).
CREATE TABLE seats_new (
    game_id        INTEGER NOT NULL REFERENCES games_new (id) ON DELETE CASCADE,
    seat           INTEGER NOT NULL CHECK (seat >= 0),
    user_id        INTEGER,
    display_name   TEXT    NOT NULL,
    is_computer    INTEGER NOT NULL DEFAULT 0,
    computer_level TEXT
        CHECK (computer_level IS NULL OR computer_level IN ('easy', 'medium', 'hard', 'expert')),
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id)
);
INSERT INTO seats_new (game_id, seat, user_id, display_name, is_computer, computer_level)
SELECT game_id, seat, user_id, display_name, is_computer, computer_level FROM seats;

CREATE TABLE reviews_new (
    game_id   INTEGER NOT NULL REFERENCES games_new (id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL CHECK (seat >= 0),
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
INSERT INTO reviews_new (
    game_id, seat, user_id, guild_id, deals, final, decisions, accurate, given_up, data, made_at
)
SELECT
    game_id, seat, user_id, guild_id, deals, final, decisions, accurate, given_up, data, made_at
FROM reviews;

CREATE TABLE auto_reviews_new (
    game_id INTEGER NOT NULL PRIMARY KEY REFERENCES games_new (id) ON DELETE CASCADE,
    outcome TEXT    NOT NULL
            CHECK (outcome IN ('reviewed', 'too old', 'unreadable', 'nothing kept')),
    done_at REAL    NOT NULL
);
INSERT INTO auto_reviews_new (game_id, outcome, done_at)
SELECT game_id, outcome, done_at FROM auto_reviews;

-- The children first: nothing refers to the old games table when it goes.
DROP TABLE actions;
DROP TABLE results;
DROP TABLE dm_refusals;
DROP TABLE rating_changes;
DROP TABLE game_archives;
DROP TABLE seats;
DROP TABLE reviews;
DROP TABLE auto_reviews;
DROP TABLE games;

ALTER TABLE games_new RENAME TO games;
ALTER TABLE actions_new RENAME TO actions;
ALTER TABLE results_new RENAME TO results;
ALTER TABLE dm_refusals_new RENAME TO dm_refusals;
ALTER TABLE rating_changes_new RENAME TO rating_changes;
ALTER TABLE game_archives_new RENAME TO game_archives;
ALTER TABLE seats_new RENAME TO seats;
ALTER TABLE reviews_new RENAME TO reviews;
ALTER TABLE auto_reviews_new RENAME TO auto_reviews;

CREATE UNIQUE INDEX games_one_open_per_channel
    ON games (channel_id) WHERE status IN ('lobby', 'active');
CREATE INDEX games_open_by_age ON games (status, updated_at);
CREATE INDEX games_by_channel ON games (channel_id);
CREATE INDEX games_to_prune ON games (updated_at)
    WHERE pruned_at IS NULL AND status IN ('finished', 'cancelled', 'expired');
CREATE INDEX results_by_player ON results (guild_id, user_id);
CREATE INDEX results_in_rated_order ON results (rated_order);
CREATE INDEX results_best_hands ON results (guild_id, user_id, best_hand DESC);
CREATE INDEX results_by_time ON results (guild_id, finished_at);
CREATE INDEX rating_changes_by_player
    ON rating_changes (guild_id, variant, vs_computer, player_id, rated_order);
CREATE INDEX reviews_by_player ON reviews (user_id, guild_id, made_at) WHERE final = 1;

-- standings: one row per player per server, variant and table.
-- The key's columns first and in its order: SQLite 3.40's quick_check misreads a WITHOUT
-- ROWID table whose key columns are declared otherwise ("NULL value in ...").
CREATE TABLE standings_new (
    guild_id        INTEGER NOT NULL,
    variant         TEXT    NOT NULL DEFAULT 'standard',
    vs_computer     INTEGER NOT NULL CHECK (vs_computer IN (0, 1)),
    player_id       INTEGER NOT NULL,
    name            TEXT    NOT NULL,  -- as last seated
    mu              REAL    NOT NULL,
    sigma           REAL    NOT NULL,
    ordinal         REAL    NOT NULL,  -- mu - 3 sigma: the conservative rating that ranks
    games           INTEGER NOT NULL,
    wins            INTEGER NOT NULL,
    game_points     INTEGER NOT NULL,  -- game points won
    skunks_given    INTEGER NOT NULL,
    skunks_taken    INTEGER NOT NULL,
    pegging_points  INTEGER NOT NULL,
    hand_points     INTEGER NOT NULL,
    crib_points     INTEGER NOT NULL,
    deals           INTEGER NOT NULL,
    best_hand       INTEGER NOT NULL,
    best_hand_cards TEXT,
    twenty_nines    INTEGER NOT NULL,
    points_missed   INTEGER NOT NULL,  -- manual counting (migration 005)
    muggins_given   INTEGER NOT NULL,
    muggins_taken   INTEGER NOT NULL,
    last_order      INTEGER NOT NULL,  -- rated_order of their last game
    lurches_given   INTEGER NOT NULL DEFAULT 0,
    lurches_taken   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, variant, vs_computer, player_id)
) WITHOUT ROWID;
INSERT INTO standings_new (
    guild_id, vs_computer, player_id, name, mu, sigma, ordinal, games, wins, game_points,
    skunks_given, skunks_taken, pegging_points, hand_points, crib_points, deals, best_hand,
    best_hand_cards, twenty_nines, points_missed, muggins_given, muggins_taken, last_order,
    lurches_given, lurches_taken
)
SELECT
    guild_id, vs_computer, player_id, name, mu, sigma, ordinal, games, wins, game_points,
    skunks_given, skunks_taken, pegging_points, hand_points, crib_points, deals, best_hand,
    best_hand_cards, twenty_nines, points_missed, muggins_given, muggins_taken, last_order,
    lurches_given, lurches_taken
FROM standings;
DROP TABLE standings;
ALTER TABLE standings_new RENAME TO standings;
CREATE INDEX standings_by_rating
    ON standings (guild_id, variant, vs_computer, ordinal DESC, player_id);

-- tournaments: any target (the variant's), and the variant its games are played in.
CREATE TABLE tournaments_new (
    id             INTEGER PRIMARY KEY,
    guild_id       INTEGER NOT NULL,
    channel_id     INTEGER NOT NULL,
    organiser_id   INTEGER NOT NULL,
    format         TEXT    NOT NULL,  -- a registered format's name (engine/formats)
    rounds         INTEGER NOT NULL DEFAULT 0,  -- 0: from the entrants when it starts
    target         INTEGER NOT NULL CHECK (target > 0),
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
    finished_at    REAL,
    cancelled_by   INTEGER,
    variant        TEXT    NOT NULL DEFAULT 'standard'  -- a registered two-player variant's name
);
INSERT INTO tournaments_new (
    id, guild_id, channel_id, organiser_id, format, rounds, target, scoring, match_games,
    playoff, round_hours, status, round, round_started, version, created_at, champion_id,
    finished_at, cancelled_by
)
SELECT
    id, guild_id, channel_id, organiser_id, format, rounds, target, scoring, match_games,
    playoff, round_hours, status, round, round_started, version, created_at, champion_id,
    finished_at, cancelled_by
FROM tournaments;

CREATE TABLE tournament_entrants_new (
    tournament_id INTEGER NOT NULL REFERENCES tournaments_new (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    seed          INTEGER NOT NULL,  -- the order they joined in
    withdrawn     INTEGER,           -- the round they withdrew in (NULL: still in)
    PRIMARY KEY (tournament_id, user_id)
);
INSERT INTO tournament_entrants_new (tournament_id, user_id, name, seed, withdrawn)
SELECT tournament_id, user_id, name, seed, withdrawn FROM tournament_entrants;

CREATE TABLE tournament_pairings_new (
    tournament_id INTEGER NOT NULL REFERENCES tournaments_new (id) ON DELETE CASCADE,
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
    archived      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, round, tab)
);
INSERT INTO tournament_pairings_new (
    tournament_id, round, tab, player_a, player_b, post_id, thread_id, game_id, wins_a,
    wins_b, spread_a, decided, winner, lurch, margin, archived
)
SELECT
    tournament_id, round, tab, player_a, player_b, post_id, thread_id, game_id, wins_a,
    wins_b, spread_a, decided, winner, lurch, margin, archived
FROM tournament_pairings;

DROP TABLE tournament_pairings;
DROP TABLE tournament_entrants;
DROP TABLE tournaments;

ALTER TABLE tournaments_new RENAME TO tournaments;
ALTER TABLE tournament_entrants_new RENAME TO tournament_entrants;
ALTER TABLE tournament_pairings_new RENAME TO tournament_pairings;

CREATE UNIQUE INDEX tournaments_one_per_channel
    ON tournaments (channel_id) WHERE status IN ('open', 'running');
CREATE INDEX tournament_pairings_game ON tournament_pairings (game_id);
