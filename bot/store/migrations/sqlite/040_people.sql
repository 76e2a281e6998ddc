-- A person is a row (issue 66): `people`, one per Discord user the bot keeps anything of (and
-- one per former player, the id a deleted person's rows stay under for the others, and one per
-- computer level the standings rate as a player: bot.core.standings.ratings). Every
-- column that holds a person's id references it (bot/core/privacy/inventory.py names each;
-- tests/bot/store/test_inventory.py checks the two agree), so "nothing is kept of a deleted
-- person" holds by the schema rather than by a lock every write takes (DELETION_LOCK):
--
-- - A deletion moves the person's row to a former player's id (UPDATE people SET id): every
--   row that names them follows at once (ON UPDATE CASCADE), in the same statement, whichever
--   table it is in; the deletion then deletes what goes and renames what stays by the former
--   id, which nobody else knows.
-- - A write of something of theirs made after it finds no person and keeps nothing: the
--   reference is checked when its transaction commits (DEFERRABLE INITIALLY DEFERRED), which
--   waits for a deletion under way and then finds the person gone, in whichever process it
--   was sent from. A write that commits first is renamed or deleted with the rest.
-- - What is made from a row as it was read references that row, not the person alone: a
--   review its seat (game, seat, player), a ranked card's record its search (entry, player).
--   A person who comes back after their deletion is a new row; what was made from their old
--   seat or search still finds nothing (the seat and the search are a former player's).
--
-- Every existing database keeps its data: the people are every id its person columns hold
-- (a former player's too), made before the references are checked.
--
-- SQLite cannot add a reference to a column in place, so each table that holds a person's id
-- is made again as SQLite's documentation says (https://www.sqlite.org/lang_altertable.html,
-- "Making Other Kinds Of Table Schema Changes"), in the one transaction the migration runs
-- in, as 020 did: its rows, its columns (in their order, with their CHECKs and comments) and
-- its indexes as they were. Foreign keys stay on (they cannot be turned off inside a
-- transaction), and dropping an old table would delete, through ON DELETE CASCADE, every row
-- that refers to it: so every table that refers to one made again is made again too (the
-- games' moves, archives, hints, refused DMs and automatic reviews, which hold no person; a
-- club's nights, which refer to their tournaments), referring to the new tables, before any old
-- one is dropped. The clubs' and the nights' numbering goes on where it was (AUTOINCREMENT: an
-- id once used is not given again). Renaming the new tables then
-- renames them in those references. (A later migration that adds a column to one of these
-- tables must come after this one: it is numbered above 040.) Every row is copied once: a file
-- of 50,000 games with a million moves (285 MB) took some 30 s on a busy machine.
--
-- Older releases cannot run beside it: they write a person's rows without a row of the person
-- (their first seat, search or setting would be refused), so a database migrated by it refuses
-- them; stop every process of an older release before starting this one (docs/running.md).

CREATE TABLE people (
    id      INTEGER NOT NULL PRIMARY KEY,  -- a user's id, a former player's or a computer's level's
    version INTEGER NOT NULL DEFAULT 0     -- moved on by each change of the person's own
);

INSERT INTO people (id)
SELECT user_id FROM seats WHERE user_id IS NOT NULL
UNION SELECT user_id FROM results WHERE user_id IS NOT NULL
UNION SELECT creator_id FROM games
UNION SELECT player_id FROM standings
UNION SELECT player_id FROM rating_changes
UNION SELECT user_id FROM rivals
UNION SELECT opponent_id FROM rivals
UNION SELECT user_id FROM reviews WHERE user_id IS NOT NULL
UNION SELECT user_id FROM daily_answers
UNION SELECT user_id FROM tournament_entrants
UNION SELECT player_a FROM tournament_pairings
UNION SELECT player_b FROM tournament_pairings WHERE player_b IS NOT NULL
UNION SELECT winner FROM tournament_pairings WHERE winner IS NOT NULL
UNION SELECT organiser_id FROM tournaments
UNION SELECT champion_id FROM tournaments WHERE champion_id IS NOT NULL
UNION SELECT cancelled_by FROM tournaments WHERE cancelled_by IS NOT NULL
UNION SELECT user_id FROM ranked_entries
UNION SELECT last_opponent FROM ranked_entries WHERE last_opponent IS NOT NULL
UNION SELECT player_a FROM ranked_matches
UNION SELECT player_b FROM ranked_matches
UNION SELECT winner FROM ranked_matches WHERE winner IS NOT NULL
UNION SELECT abandoned_by FROM ranked_matches WHERE abandoned_by IS NOT NULL
UNION SELECT winner FROM ranked_games WHERE winner IS NOT NULL
UNION SELECT user_id FROM ranked_ratings
UNION SELECT user_id FROM ranked_changes
UNION SELECT user_id FROM ranked_blocks
UNION SELECT blocked_id FROM ranked_blocks
UNION SELECT user_id FROM user_settings
UNION SELECT user_id FROM dm_links
UNION SELECT user_id FROM members_seen
UNION SELECT organiser_id FROM clubs
UNION SELECT user_id FROM night_people;

-- The tables made again, each referring to the others' new tables.

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
    variant          TEXT    NOT NULL DEFAULT 'standard',  -- a registered variant's name
    ending           TEXT,
    rematch_of       INTEGER,
    series           INTEGER,
    hints            INTEGER NOT NULL DEFAULT 0 CHECK (hints IN (0, 1)),
    lesson           INTEGER NOT NULL DEFAULT 0 CHECK (lesson IN (0, 1)),
    FOREIGN KEY (creator_id) REFERENCES people (id) ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE seats_new (
    game_id        INTEGER NOT NULL REFERENCES games_new (id) ON DELETE CASCADE,
    seat           INTEGER NOT NULL CHECK (seat >= 0),
    user_id        INTEGER,
    display_name   TEXT    NOT NULL,
    is_computer    INTEGER NOT NULL DEFAULT 0,
    computer_level TEXT
        CHECK (computer_level IS NULL OR computer_level IN ('easy', 'medium', 'hard', 'expert')),
    held_until     REAL,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id),
    FOREIGN KEY (user_id) REFERENCES people (id) ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED
);
-- (What a review refers to: made now, so the reviews copied below find it.)
CREATE UNIQUE INDEX seats_of_player ON seats_new (game_id, seat, user_id);

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
    PRIMARY KEY (game_id, seat),
    FOREIGN KEY (user_id) REFERENCES people (id) ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED,
    FOREIGN KEY (game_id, seat, user_id) REFERENCES seats_new (game_id, seat, user_id)
        ON UPDATE CASCADE ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED
);

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
    hints           INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seat),
    FOREIGN KEY (user_id) REFERENCES people (id) ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE actions_new (
    game_id INTEGER NOT NULL REFERENCES games_new (id) ON DELETE CASCADE,
    seq     INTEGER NOT NULL,
    action  TEXT    NOT NULL,  -- JSON, as the engine logs it
    at      REAL    NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE hints_taken_new (
    game_id INTEGER NOT NULL REFERENCES games_new (id) ON DELETE CASCADE,
    seat    INTEGER NOT NULL,
    hints   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seat)
);

CREATE TABLE dm_refusals_new (
    game_id INTEGER NOT NULL REFERENCES games_new (id) ON DELETE CASCADE,
    seat    INTEGER NOT NULL,
    deal    INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);

CREATE TABLE game_archives_new (
    game_id INTEGER NOT NULL PRIMARY KEY REFERENCES games_new (id) ON DELETE CASCADE,
    record  BLOB    NOT NULL
);

CREATE TABLE auto_reviews_new (
    game_id INTEGER NOT NULL PRIMARY KEY REFERENCES games_new (id) ON DELETE CASCADE,
    outcome TEXT    NOT NULL
            CHECK (outcome IN ('reviewed', 'too old', 'unreadable', 'nothing kept')),
    done_at REAL    NOT NULL
);

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
    PRIMARY KEY (guild_id, variant, vs_computer, player_id),
    FOREIGN KEY (player_id) REFERENCES people (id) ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED
) WITHOUT ROWID;

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
    PRIMARY KEY (game_id, seat),
    FOREIGN KEY (player_id) REFERENCES people (id) ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE rivals_new (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    opponent_id INTEGER NOT NULL,
    games       INTEGER NOT NULL,
    wins        INTEGER NOT NULL,  -- user_id's side won
    losses      INTEGER NOT NULL,  -- opponent_id's side won (the rest a third player won)
    points_won  INTEGER NOT NULL,  -- game points
    points_lost INTEGER NOT NULL,
    margin      INTEGER NOT NULL,  -- the sum of (user's score - opponent's score)
    recent      TEXT    NOT NULL,  -- JSON: the last five games, newest first
    PRIMARY KEY (guild_id, user_id, opponent_id),
    FOREIGN KEY (user_id) REFERENCES people (id) ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED,
    FOREIGN KEY (opponent_id) REFERENCES people (id) ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED
) WITHOUT ROWID;

CREATE TABLE daily_answers_new (
    guild_id    INTEGER NOT NULL,
    day         TEXT    NOT NULL,
    user_id     INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    thrown      TEXT    NOT NULL,
    points      REAL    NOT NULL,
    best        REAL    NOT NULL,
    rank        INTEGER NOT NULL,
    answered_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, day, user_id),
    FOREIGN KEY (user_id) REFERENCES people (id) ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED
);

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
    variant        TEXT    NOT NULL DEFAULT 'standard',  -- a registered two-player variant's name
    round_held     REAL    NOT NULL DEFAULT 0,
    refused_since  REAL,
    FOREIGN KEY (organiser_id) REFERENCES people (id) ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED,
    FOREIGN KEY (champion_id) REFERENCES people (id) ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED,
    FOREIGN KEY (cancelled_by) REFERENCES people (id) ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE tournament_entrants_new (
    tournament_id INTEGER NOT NULL REFERENCES tournaments_new (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    seed          INTEGER NOT NULL,  -- the order they joined in
    withdrawn     INTEGER,           -- the round they withdrew in (NULL: still in)
    PRIMARY KEY (tournament_id, user_id),
    FOREIGN KEY (user_id) REFERENCES people (id) ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED
);

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
    version       INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, round, tab),
    FOREIGN KEY (player_a) REFERENCES people (id) ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED,
    FOREIGN KEY (player_b) REFERENCES people (id) ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED,
    FOREIGN KEY (winner) REFERENCES people (id) ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE ranked_entries_new (
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
    version       INTEGER NOT NULL DEFAULT 0,
    FOREIGN KEY (user_id) REFERENCES people (id) ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED,
    FOREIGN KEY (last_opponent) REFERENCES people (id) ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED
);
-- (What a ranked card's record refers to, as the seats' above.)
CREATE UNIQUE INDEX ranked_entries_of_player ON ranked_entries_new (id, user_id);

CREATE TABLE ranked_matches_new (
    id           INTEGER PRIMARY KEY,
    entry_a      INTEGER NOT NULL UNIQUE REFERENCES ranked_entries_new (id),
    entry_b      INTEGER NOT NULL UNIQUE REFERENCES ranked_entries_new (id),
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
    ended_at     REAL,
    version      INTEGER NOT NULL DEFAULT 0,
    FOREIGN KEY (player_a) REFERENCES people (id) ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED,
    FOREIGN KEY (player_b) REFERENCES people (id) ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED,
    FOREIGN KEY (winner) REFERENCES people (id) ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED,
    FOREIGN KEY (abandoned_by) REFERENCES people (id) ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE ranked_games_new (
    match_id INTEGER NOT NULL REFERENCES ranked_matches_new (id),
    number   INTEGER NOT NULL CHECK (number BETWEEN 1 AND 3),
    game_id  INTEGER NOT NULL UNIQUE,
    winner   INTEGER,            -- once counted
    ended_by TEXT,               -- read no more (023_endings)
    PRIMARY KEY (match_id, number),
    FOREIGN KEY (winner) REFERENCES people (id) ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE ranked_changes_new (
    match_id     INTEGER NOT NULL REFERENCES ranked_matches_new (id),
    user_id      INTEGER NOT NULL,
    season       TEXT    NOT NULL,
    mu_before    REAL    NOT NULL,
    sigma_before REAL    NOT NULL,
    mu_after     REAL    NOT NULL,
    sigma_after  REAL    NOT NULL,
    PRIMARY KEY (match_id, user_id),
    FOREIGN KEY (user_id) REFERENCES people (id) ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE ranked_ratings_new (
    season     TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    ordinal    REAL    NOT NULL,  -- mu - 3 sigma, which ranks the ladder
    matches    INTEGER NOT NULL DEFAULT 0,
    wins       INTEGER NOT NULL DEFAULT 0,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (season, user_id),
    FOREIGN KEY (user_id) REFERENCES people (id) ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE ranked_blocks_new (
    user_id    INTEGER NOT NULL,
    blocked_id INTEGER NOT NULL,
    name       TEXT    NOT NULL,  -- the blocked player's name when blocked
    at         REAL    NOT NULL,
    blocked_key TEXT,
    PRIMARY KEY (user_id, blocked_id),
    FOREIGN KEY (user_id) REFERENCES people (id) ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED,
    FOREIGN KEY (blocked_id) REFERENCES people (id) ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE user_settings_new (
    user_id    INTEGER PRIMARY KEY,
    coach      INTEGER NOT NULL DEFAULT 1 CHECK (coach IN (0, 1)),
    updated_at REAL    NOT NULL,
    learn_offered REAL,
    version    INTEGER NOT NULL DEFAULT 0,  -- moved on by each change of the coach (036)
    FOREIGN KEY (user_id) REFERENCES people (id) ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE dm_links_new (
    user_id    INTEGER PRIMARY KEY,
    channel_id INTEGER,
    token      TEXT,
    token_at   REAL,
    FOREIGN KEY (user_id) REFERENCES people (id) ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE members_seen_new (
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    seen_at  REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id),
    FOREIGN KEY (user_id) REFERENCES people (id) ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED
);

-- (Club nights, 038: a club's organiser and a night's people are people; a night refers to
-- its tournament, made again above.)
CREATE TABLE clubs_new (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    organiser_id  INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    repeat        TEXT    NOT NULL
                  CHECK (repeat IN ('once', 'weekly', 'fortnightly', 'monthly')),
    zone          TEXT    NOT NULL,
    format        TEXT    NOT NULL,
    target        INTEGER NOT NULL,
    scoring       TEXT    NOT NULL,
    round_hours   REAL    NOT NULL,
    rounds        INTEGER NOT NULL DEFAULT 0,
    match_games   INTEGER NOT NULL DEFAULT 1,
    variant       TEXT    NOT NULL DEFAULT 'standard',
    voice_id      INTEGER,
    events        INTEGER NOT NULL DEFAULT 1,
    event_id      INTEGER,
    event_refused REAL,
    event_claimed REAL,
    ended         INTEGER NOT NULL DEFAULT 0,
    created_at    REAL    NOT NULL,
    FOREIGN KEY (organiser_id) REFERENCES people (id) ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE nights_new (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    club_id       INTEGER NOT NULL REFERENCES clubs_new (id) ON DELETE CASCADE,
    number        INTEGER NOT NULL,
    starts_at     REAL    NOT NULL,
    usual_at      REAL    NOT NULL,
    tournament_id INTEGER NOT NULL REFERENCES tournaments_new (id) ON DELETE CASCADE,
    state         TEXT    NOT NULL DEFAULT 'scheduled'
                  CHECK (state IN ('scheduled', 'check_in', 'started', 'played', 'called_off',
                                   'skipped', 'cancelled')),
    note          TEXT,
    moved         INTEGER NOT NULL DEFAULT 0,
    event_step    TEXT    NOT NULL DEFAULT 'none'
                  CHECK (event_step IN ('none', 'scheduled', 'started', 'ended')),
    version       INTEGER NOT NULL DEFAULT 1,
    UNIQUE (club_id, number)
);

CREATE TABLE night_people_new (
    night_id   INTEGER NOT NULL REFERENCES nights_new (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    interested INTEGER NOT NULL DEFAULT 0,
    checked_in REAL,
    PRIMARY KEY (night_id, user_id),
    FOREIGN KEY (user_id) REFERENCES people (id) ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE messages_new (
    owner          TEXT    NOT NULL,  -- "kind:id", e.g. "game:12"
    key            TEXT    NOT NULL,
    channel_id     INTEGER NOT NULL,
    message_id     INTEGER NOT NULL,  -- 0 until known: an interaction's answer, reached by its token
    digest         TEXT    NOT NULL,  -- '' when what it shows is not known (edit it once)
    token          TEXT,
    token_at       REAL,
    token_original INTEGER NOT NULL DEFAULT 0,
    shown_version  INTEGER NOT NULL DEFAULT 0,
    -- Set while the look is a click's answer, kept with its move, not yet known to have
    -- reached Discord (cleared once it has).
    unconfirmed_since REAL,
    card_entry     INTEGER,  -- a ranked card's: its search, and that search's player as read
    card_user      INTEGER,
    PRIMARY KEY (owner, key),
    FOREIGN KEY (card_entry, card_user) REFERENCES ranked_entries_new (id, user_id)
        ON UPDATE CASCADE ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE pending_posts_new (
    owner      TEXT    NOT NULL,
    key        TEXT    NOT NULL,
    channel_id INTEGER NOT NULL,
    since      REAL    NOT NULL,
    card_entry INTEGER,  -- a ranked card's: its search, and that search's player as read
    card_user  INTEGER,
    PRIMARY KEY (owner, key),
    FOREIGN KEY (card_entry, card_user) REFERENCES ranked_entries_new (id, user_id)
        ON UPDATE CASCADE ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED
);

-- Every row copied, the tables referred to first.

INSERT INTO games_new (id, guild_id, channel_id, status, creator_id, num_players, target, vs_computer, snapshot, version, created_at, updated_at, end_note, scoring, counting, pruned_at, private_table, occasion, variant, ending, rematch_of, series, hints, lesson)
    SELECT id, guild_id, channel_id, status, creator_id, num_players, target, vs_computer, snapshot, version, created_at, updated_at, end_note, scoring, counting, pruned_at, private_table, occasion, variant, ending, rematch_of, series, hints, lesson FROM games;
INSERT INTO seats_new (game_id, seat, user_id, display_name, is_computer, computer_level, held_until)
    SELECT game_id, seat, user_id, display_name, is_computer, computer_level, held_until FROM seats;
INSERT INTO reviews_new (game_id, seat, user_id, guild_id, deals, final, decisions, accurate, given_up, data, made_at)
    SELECT game_id, seat, user_id, guild_id, deals, final, decisions, accurate, given_up, data, made_at FROM reviews;
INSERT INTO results_new (game_id, guild_id, seat, user_id, display_name, is_computer, vs_computer, won, game_points, skunk_given, skunk_taken, score, final_scores, reason, pegging_points, hand_points, crib_points, deals, best_hand, best_hand_cards, twenty_nines, finished_at, points_missed, muggins_given, muggins_taken, rated_order, computer_level, scoring, variant, hints)
    SELECT game_id, guild_id, seat, user_id, display_name, is_computer, vs_computer, won, game_points, skunk_given, skunk_taken, score, final_scores, reason, pegging_points, hand_points, crib_points, deals, best_hand, best_hand_cards, twenty_nines, finished_at, points_missed, muggins_given, muggins_taken, rated_order, computer_level, scoring, variant, hints FROM results;
INSERT INTO actions_new (game_id, seq, action, at)
    SELECT game_id, seq, action, at FROM actions;
INSERT INTO hints_taken_new (game_id, seat, hints)
    SELECT game_id, seat, hints FROM hints_taken;
INSERT INTO dm_refusals_new (game_id, seat, deal)
    SELECT game_id, seat, deal FROM dm_refusals;
INSERT INTO game_archives_new (game_id, record)
    SELECT game_id, record FROM game_archives;
INSERT INTO auto_reviews_new (game_id, outcome, done_at)
    SELECT game_id, outcome, done_at FROM auto_reviews;
INSERT INTO standings_new (guild_id, variant, vs_computer, player_id, name, mu, sigma, ordinal, games, wins, game_points, skunks_given, skunks_taken, pegging_points, hand_points, crib_points, deals, best_hand, best_hand_cards, twenty_nines, points_missed, muggins_given, muggins_taken, last_order, lurches_given, lurches_taken)
    SELECT guild_id, variant, vs_computer, player_id, name, mu, sigma, ordinal, games, wins, game_points, skunks_given, skunks_taken, pegging_points, hand_points, crib_points, deals, best_hand, best_hand_cards, twenty_nines, points_missed, muggins_given, muggins_taken, last_order, lurches_given, lurches_taken FROM standings;
INSERT INTO rating_changes_new (game_id, seat, guild_id, vs_computer, player_id, rated_order, mu_before, sigma_before, mu_after, sigma_after, finished_at, variant)
    SELECT game_id, seat, guild_id, vs_computer, player_id, rated_order, mu_before, sigma_before, mu_after, sigma_after, finished_at, variant FROM rating_changes;
INSERT INTO rivals_new (guild_id, user_id, opponent_id, games, wins, losses, points_won, points_lost, margin, recent)
    SELECT guild_id, user_id, opponent_id, games, wins, losses, points_won, points_lost, margin, recent FROM rivals;
INSERT INTO daily_answers_new (guild_id, day, user_id, name, thrown, points, best, rank, answered_at)
    SELECT guild_id, day, user_id, name, thrown, points, best, rank, answered_at FROM daily_answers;
INSERT INTO tournaments_new (id, guild_id, channel_id, organiser_id, format, rounds, target, scoring, match_games, playoff, round_hours, status, round, round_started, version, created_at, champion_id, finished_at, cancelled_by, variant, round_held, refused_since)
    SELECT id, guild_id, channel_id, organiser_id, format, rounds, target, scoring, match_games, playoff, round_hours, status, round, round_started, version, created_at, champion_id, finished_at, cancelled_by, variant, round_held, refused_since FROM tournaments;
INSERT INTO tournament_entrants_new (tournament_id, user_id, name, seed, withdrawn)
    SELECT tournament_id, user_id, name, seed, withdrawn FROM tournament_entrants;
INSERT INTO tournament_pairings_new (tournament_id, round, tab, player_a, player_b, post_id, thread_id, game_id, wins_a, wins_b, spread_a, decided, winner, lurch, margin, archived, version)
    SELECT tournament_id, round, tab, player_a, player_b, post_id, thread_id, game_id, wins_a, wins_b, spread_a, decided, winner, lurch, margin, archived, version FROM tournament_pairings;
INSERT INTO ranked_entries_new (id, user_id, name, avatar, guild_id, channel_id, place, status, mu, last_opponent, queued_at, match_id, ended_at, version)
    SELECT id, user_id, name, avatar, guild_id, channel_id, place, status, mu, last_opponent, queued_at, match_id, ended_at, version FROM ranked_entries;
INSERT INTO ranked_matches_new (id, entry_a, entry_b, player_a, player_b, status, wins_a, wins_b, games, game_id, winner, how, abandoned_by, season, started_at, ended_at, version)
    SELECT id, entry_a, entry_b, player_a, player_b, status, wins_a, wins_b, games, game_id, winner, how, abandoned_by, season, started_at, ended_at, version FROM ranked_matches;
INSERT INTO ranked_games_new (match_id, number, game_id, winner, ended_by)
    SELECT match_id, number, game_id, winner, ended_by FROM ranked_games;
INSERT INTO ranked_changes_new (match_id, user_id, season, mu_before, sigma_before, mu_after, sigma_after)
    SELECT match_id, user_id, season, mu_before, sigma_before, mu_after, sigma_after FROM ranked_changes;
INSERT INTO ranked_ratings_new (season, user_id, name, mu, sigma, ordinal, matches, wins, updated_at)
    SELECT season, user_id, name, mu, sigma, ordinal, matches, wins, updated_at FROM ranked_ratings;
INSERT INTO ranked_blocks_new (user_id, blocked_id, name, at, blocked_key)
    SELECT user_id, blocked_id, name, at, blocked_key FROM ranked_blocks;
INSERT INTO user_settings_new (user_id, coach, updated_at, learn_offered, version)
    SELECT user_id, coach, updated_at, learn_offered, version FROM user_settings;
INSERT INTO dm_links_new (user_id, channel_id, token, token_at)
    SELECT user_id, channel_id, token, token_at FROM dm_links;
INSERT INTO members_seen_new (guild_id, user_id, seen_at)
    SELECT guild_id, user_id, seen_at FROM members_seen;
INSERT INTO clubs_new (id, guild_id, channel_id, organiser_id, name, repeat, zone, format, target, scoring, round_hours, rounds, match_games, variant, voice_id, events, event_id, event_refused, event_claimed, ended, created_at)
    SELECT id, guild_id, channel_id, organiser_id, name, repeat, zone, format, target, scoring, round_hours, rounds, match_games, variant, voice_id, events, event_id, event_refused, event_claimed, ended, created_at FROM clubs;
INSERT INTO nights_new (id, club_id, number, starts_at, usual_at, tournament_id, state, note, moved, event_step, version)
    SELECT id, club_id, number, starts_at, usual_at, tournament_id, state, note, moved, event_step, version FROM nights;
INSERT INTO night_people_new (night_id, user_id, name, interested, checked_in)
    SELECT night_id, user_id, name, interested, checked_in FROM night_people;
INSERT INTO sqlite_sequence (name, seq)
    SELECT 'clubs_new', seq FROM sqlite_sequence WHERE name = 'clubs'
    AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'clubs_new');
UPDATE sqlite_sequence
    SET seq = max(seq, coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'clubs'), 0))
    WHERE name = 'clubs_new';
INSERT INTO sqlite_sequence (name, seq)
    SELECT 'nights_new', seq FROM sqlite_sequence WHERE name = 'nights'
    AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'nights_new');
UPDATE sqlite_sequence
    SET seq = max(seq, coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'nights'), 0))
    WHERE name = 'nights_new';
INSERT INTO messages_new (owner, key, channel_id, message_id, digest, token, token_at, token_original, shown_version, unconfirmed_since, card_entry, card_user)
    SELECT o.owner, o.key, o.channel_id, o.message_id, o.digest, o.token, o.token_at, o.token_original, o.shown_version, o.unconfirmed_since, e.id, e.user_id
    FROM messages o LEFT JOIN ranked_entries e
    ON o.owner LIKE 'ranked:%' AND e.id = CAST(substr(o.owner, 8) AS INTEGER);
INSERT INTO pending_posts_new (owner, key, channel_id, since, card_entry, card_user)
    SELECT o.owner, o.key, o.channel_id, o.since, e.id, e.user_id
    FROM pending_posts o LEFT JOIN ranked_entries e
    ON o.owner LIKE 'ranked:%' AND e.id = CAST(substr(o.owner, 8) AS INTEGER);

-- The old tables dropped, those that refer to others first (nothing refers to them now),
-- and the new ones renamed (which renames them where the others refer to them).

DROP TABLE night_people;
DROP TABLE nights;
DROP TABLE clubs;
DROP TABLE pending_posts;
DROP TABLE messages;
DROP TABLE members_seen;
DROP TABLE dm_links;
DROP TABLE user_settings;
DROP TABLE ranked_blocks;
DROP TABLE ranked_ratings;
DROP TABLE ranked_changes;
DROP TABLE ranked_games;
DROP TABLE ranked_matches;
DROP TABLE ranked_entries;
DROP TABLE tournament_pairings;
DROP TABLE tournament_entrants;
DROP TABLE tournaments;
DROP TABLE daily_answers;
DROP TABLE rivals;
DROP TABLE rating_changes;
DROP TABLE standings;
DROP TABLE auto_reviews;
DROP TABLE game_archives;
DROP TABLE dm_refusals;
DROP TABLE hints_taken;
DROP TABLE actions;
DROP TABLE results;
DROP TABLE reviews;
DROP TABLE seats;
DROP TABLE games;

ALTER TABLE games_new RENAME TO games;
ALTER TABLE seats_new RENAME TO seats;
ALTER TABLE reviews_new RENAME TO reviews;
ALTER TABLE results_new RENAME TO results;
ALTER TABLE actions_new RENAME TO actions;
ALTER TABLE hints_taken_new RENAME TO hints_taken;
ALTER TABLE dm_refusals_new RENAME TO dm_refusals;
ALTER TABLE game_archives_new RENAME TO game_archives;
ALTER TABLE auto_reviews_new RENAME TO auto_reviews;
ALTER TABLE standings_new RENAME TO standings;
ALTER TABLE rating_changes_new RENAME TO rating_changes;
ALTER TABLE rivals_new RENAME TO rivals;
ALTER TABLE daily_answers_new RENAME TO daily_answers;
ALTER TABLE tournaments_new RENAME TO tournaments;
ALTER TABLE tournament_entrants_new RENAME TO tournament_entrants;
ALTER TABLE tournament_pairings_new RENAME TO tournament_pairings;
ALTER TABLE ranked_entries_new RENAME TO ranked_entries;
ALTER TABLE ranked_matches_new RENAME TO ranked_matches;
ALTER TABLE ranked_games_new RENAME TO ranked_games;
ALTER TABLE ranked_changes_new RENAME TO ranked_changes;
ALTER TABLE ranked_ratings_new RENAME TO ranked_ratings;
ALTER TABLE ranked_blocks_new RENAME TO ranked_blocks;
ALTER TABLE user_settings_new RENAME TO user_settings;
ALTER TABLE dm_links_new RENAME TO dm_links;
ALTER TABLE members_seen_new RENAME TO members_seen;
ALTER TABLE messages_new RENAME TO messages;
ALTER TABLE pending_posts_new RENAME TO pending_posts;
ALTER TABLE clubs_new RENAME TO clubs;
ALTER TABLE nights_new RENAME TO nights;
ALTER TABLE night_people_new RENAME TO night_people;

-- Their indexes, made again.

CREATE UNIQUE INDEX games_one_open_per_channel
    ON games (channel_id) WHERE status IN ('lobby', 'active');
CREATE INDEX games_open_by_age ON games (status, updated_at);
CREATE INDEX games_by_channel ON games (channel_id);
CREATE INDEX games_to_prune ON games (updated_at)
    WHERE pruned_at IS NULL AND status IN ('finished', 'cancelled', 'expired');
CREATE INDEX games_by_guild ON games (guild_id);
CREATE UNIQUE INDEX games_one_rematch ON games (rematch_of) WHERE rematch_of IS NOT NULL;
CREATE INDEX games_of_series ON games (series) WHERE series IS NOT NULL;
CREATE UNIQUE INDEX games_one_open_lesson ON games (creator_id)
    WHERE lesson = 1 AND status IN ('lobby', 'active');
CREATE INDEX seats_of_user ON seats (user_id);
CREATE INDEX reviews_by_player ON reviews (user_id, guild_id, made_at) WHERE final = 1;
CREATE INDEX results_by_player ON results (guild_id, user_id);
CREATE INDEX results_in_rated_order ON results (rated_order);
CREATE INDEX results_best_hands ON results (guild_id, user_id, best_hand DESC);
CREATE INDEX results_by_time ON results (guild_id, finished_at);
CREATE INDEX standings_by_rating
    ON standings (guild_id, variant, vs_computer, ordinal DESC, player_id);
CREATE INDEX rating_changes_by_player
    ON rating_changes (guild_id, variant, vs_computer, player_id, rated_order);
CREATE INDEX daily_answers_by_user ON daily_answers (guild_id, user_id, day);
CREATE UNIQUE INDEX tournaments_one_per_channel
    ON tournaments (channel_id) WHERE status IN ('open', 'running');
CREATE INDEX tournament_pairings_game ON tournament_pairings (game_id);
CREATE UNIQUE INDEX ranked_one_live_entry
    ON ranked_entries (user_id) WHERE status IN ('searching', 'matched');
CREATE INDEX ranked_searching ON ranked_entries (mu) WHERE status = 'searching';
CREATE INDEX ranked_entries_of_user ON ranked_entries (user_id, id);
CREATE INDEX ranked_matches_playing ON ranked_matches (status) WHERE status = 'playing';
CREATE INDEX ranked_matches_a ON ranked_matches (player_a, ended_at);
CREATE INDEX ranked_matches_b ON ranked_matches (player_b, ended_at);
CREATE INDEX ranked_changes_of_user ON ranked_changes (user_id, match_id);
CREATE INDEX ranked_ratings_ladder ON ranked_ratings (season, ordinal DESC);
CREATE INDEX ranked_ratings_of_user ON ranked_ratings (user_id, season);
CREATE INDEX ranked_blocked ON ranked_blocks (blocked_id);
CREATE INDEX ranked_blocked_keys ON ranked_blocks (blocked_key) WHERE blocked_key IS NOT NULL;
CREATE INDEX messages_unconfirmed ON messages (unconfirmed_since) WHERE unconfirmed_since IS NOT NULL;
CREATE INDEX messages_of_card ON messages (card_entry, card_user) WHERE card_entry IS NOT NULL;
CREATE INDEX pending_posts_of_card ON pending_posts (card_entry, card_user)
    WHERE card_entry IS NOT NULL;
CREATE INDEX user_settings_changed ON user_settings (updated_at);
CREATE UNIQUE INDEX clubs_one_per_channel ON clubs (channel_id) WHERE ended = 0;
CREATE INDEX clubs_by_event ON clubs (event_id) WHERE event_id IS NOT NULL;
CREATE INDEX clubs_by_guild ON clubs (guild_id);
CREATE UNIQUE INDEX nights_by_tournament ON nights (tournament_id);
CREATE INDEX nights_under_way ON nights (state)
    WHERE state IN ('scheduled', 'check_in', 'started');
CREATE INDEX night_people_by_user ON night_people (user_id);
