-- Skill ratings (openskill's Plackett–Luce, bot/core/ratings.py) and per-player aggregates,
-- written in the transaction that records a result, so the leaderboard and stats read a few
-- rows by index instead of every result of a server. All of it is derived from `results`:
-- `python -m bot.ratings --rebuild` recomputes it in `rated_order` and gets the same numbers.

-- The order results were recorded in (one number per game), which the ratings follow.
-- Results already kept are ordered by when they finished.
ALTER TABLE results ADD COLUMN rated_order INTEGER;
-- A computer seat's level, so each level is rated as a player of its own.
ALTER TABLE results ADD COLUMN computer_level TEXT;

UPDATE results SET computer_level = (
        SELECT s.computer_level FROM seats s
        WHERE s.game_id = results.game_id AND s.seat = results.seat)
    WHERE is_computer = 1;
UPDATE results SET rated_order = ordered.n
    FROM (SELECT game_id, ROW_NUMBER() OVER (ORDER BY MIN(finished_at), game_id) AS n
          FROM results GROUP BY game_id) AS ordered
    WHERE results.game_id = ordered.game_id;

CREATE INDEX results_in_rated_order ON results (rated_order);
-- A player's best hands, best first, without reading all their results.
CREATE INDEX results_best_hands ON results (guild_id, user_id, best_hand DESC);
-- `/cribbage status` finds a channel's games (issue 10: it scanned every game of every server).
CREATE INDEX games_by_channel ON games (channel_id);

-- One row per player per server and table: people's games (vs_computer = 0) or games with a
-- computer seat (1). player_id is the user's id, or for a computer level -1 easy, -2 medium,
-- -3 hard (Discord ids are positive). guild_id 0 stands for "no server".
CREATE TABLE standings (
    guild_id        INTEGER NOT NULL,
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
    PRIMARY KEY (guild_id, vs_computer, player_id)
) WITHOUT ROWID;
CREATE INDEX standings_by_rating ON standings (guild_id, vs_computer, ordinal DESC, player_id);

-- Each rated seat's rating before and after its game: the chart, the trend and the result line.
CREATE TABLE rating_changes (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
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
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX rating_changes_by_player
    ON rating_changes (guild_id, vs_computer, player_id, rated_order);

-- Head to head between two people on a server (both directions kept, so one row answers),
-- over every game they sat on opposite sides of.
CREATE TABLE rivals (
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
    PRIMARY KEY (guild_id, user_id, opponent_id)
) WITHOUT ROWID;
