-- A tournament's format is any the engine has registered (engine/formats, issue 34): the
-- core checks the name against the registry when a tournament is opened, so the CHECK that
-- listed swiss, round_robin and knockout goes, and a new format needs no migration.
--
-- SQLite cannot drop a CHECK in place, so the table is made again as SQLite's documentation
-- says (https://www.sqlite.org/lang_altertable.html, "Making Other Kinds Of Table Schema
-- Changes"), in the one transaction the migration runs in. Foreign keys stay on (they cannot
-- be turned off inside a transaction), and dropping the old tournaments table would delete
-- every entrant and pairing through their ON DELETE CASCADE: so the two tables that refer to
-- it are made again too, referring to the new table, before any old one is dropped. Renaming
-- the new tournaments table then renames it in their REFERENCES. Every row is copied as it
-- is (ids included), the columns keep their order, and the indexes are made again.

CREATE TABLE tournaments_new (
    id             INTEGER PRIMARY KEY,
    guild_id       INTEGER NOT NULL,
    channel_id     INTEGER NOT NULL,
    organiser_id   INTEGER NOT NULL,
    format         TEXT    NOT NULL,  -- a registered format's name (engine/formats)
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
    finished_at    REAL,
    cancelled_by   INTEGER
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

-- The children first: nothing refers to the old tournaments table when it goes.
DROP TABLE tournament_pairings;
DROP TABLE tournament_entrants;
DROP TABLE tournaments;

ALTER TABLE tournaments_new RENAME TO tournaments;
ALTER TABLE tournament_entrants_new RENAME TO tournament_entrants;
ALTER TABLE tournament_pairings_new RENAME TO tournament_pairings;

-- At most one tournament open or running per channel.
CREATE UNIQUE INDEX tournaments_one_per_channel
    ON tournaments (channel_id) WHERE status IN ('open', 'running');
CREATE INDEX tournament_pairings_game ON tournament_pairings (game_id);
