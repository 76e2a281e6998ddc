-- older releases: run beside it
-- A ranked match's games recorded as their results say them (the fix of 235e575c): a game
-- played apart (a ranked match's, its channel below zero: GameRecord.in_match) counts as one
-- game won or lost, 1 game point, never a lurch or a skunk, as its result and the match's
-- tables say. The releases before that fix recorded such a game with the engine's game points
-- (a game lost on the clock at 0-0 as a lurch, 2), so every player who played ranked kept them
-- in their stats outside servers and their head to head for ever: two games lost on the clock
-- at 0-0 showed "lurches given 2" and "Game points: Bea: 4".
--
-- This mends those results (game_points 1, no skunk_given or skunk_taken) and what the store
-- derived from them, as Store.save would have derived it from the right rows: each player's
-- standing (game_points, skunks_ and lurches_given and taken, by the rule each result kept
-- in results.scoring) and the head to head of every two people (points_won, points_lost and
-- the game's points in rivals.recent). The ratings (mu, sigma, rating_changes, the ranked
-- ladder) are left as they are: they were rated from who won and the scores alone, never from
-- the game points. The seasons read the results themselves (and a ranked game is no server's).
-- `python -m bot ratings --check` reproduces every stored number after it.
--
-- Cheap on a large database: it reads only the games played apart (games_by_channel) and
-- their results, and changes only the rows of the players and pairs of their wrong results;
-- a database whose ranked games are right (or with none) changes nothing, so it is the same
-- whenever it runs. It changes no column's meaning, only wrong values, so the release before
-- it reads and writes everything as it did and may run beside it. But that release (and every
-- one before the fix) still records a ranked game the old way: a game that ends on one of its
-- processes after this migration keeps the old figures. Stop every process of an older release
-- before starting this one to leave none (docs/running.md).
-- (UPDATE ... FROM needs SQLite 3.33 or later, which every supported Python ships or links.)

-- The wrong rows: each seat of a finished game played apart whose result names game points
-- past one, or a lurch or skunk (with what it added past the one game point).
CREATE TEMP TABLE mended_results AS
SELECT r.game_id, r.seat, COALESCE(r.guild_id, 0) AS guild_id, r.variant, r.vs_computer,
       r.user_id, r.is_computer, r.won, r.game_points - 1 AS extra, r.skunk_given,
       r.skunk_taken, r.scoring
FROM games g JOIN results r ON r.game_id = g.id
WHERE g.channel_id < 0
  AND (r.game_points <> 1 OR r.skunk_given <> 0 OR r.skunk_taken <> 0);

-- What each person's standing counted too many (a person has one seat in a game; the
-- standing's lurch or skunk is by the rule the result kept, as bot.core.standings.ratings
-- counts it).
CREATE TEMP TABLE mended_standings AS
SELECT guild_id, variant, vs_computer, user_id AS player_id,
       SUM(CASE WHEN won <> 0 THEN extra ELSE 0 END) AS game_points,
       SUM(CASE WHEN skunk_given <> 0 AND scoring = 'skunk' THEN 1 ELSE 0 END) AS skunks_given,
       SUM(CASE WHEN skunk_taken <> 0 AND scoring = 'skunk' THEN 1 ELSE 0 END) AS skunks_taken,
       SUM(CASE WHEN skunk_given <> 0 AND scoring = 'lurch' THEN 1 ELSE 0 END) AS lurches_given,
       SUM(CASE WHEN skunk_taken <> 0 AND scoring = 'lurch' THEN 1 ELSE 0 END) AS lurches_taken
FROM mended_results WHERE is_computer = 0 AND user_id IS NOT NULL
GROUP BY guild_id, variant, vs_computer, user_id;

-- What each head to head counted too many: the game's points (the same on every seat) for
-- the side that won it (a ranked match is two people: the other seat is the other side).
CREATE TEMP TABLE mended_rivals AS
SELECT mine.guild_id, mine.user_id, theirs.user_id AS opponent_id,
       SUM(CASE WHEN mine.won <> 0 THEN mine.extra ELSE 0 END) AS points_won,
       SUM(CASE WHEN theirs.won <> 0 THEN mine.extra ELSE 0 END) AS points_lost
FROM mended_results mine
JOIN mended_results theirs ON theirs.game_id = mine.game_id AND theirs.seat <> mine.seat
WHERE mine.is_computer = 0 AND theirs.is_computer = 0
  AND mine.user_id IS NOT NULL AND theirs.user_id IS NOT NULL
GROUP BY mine.guild_id, mine.user_id, theirs.user_id;

UPDATE standings SET
    game_points = standings.game_points - d.game_points,
    skunks_given = standings.skunks_given - d.skunks_given,
    skunks_taken = standings.skunks_taken - d.skunks_taken,
    lurches_given = standings.lurches_given - d.lurches_given,
    lurches_taken = standings.lurches_taken - d.lurches_taken
FROM mended_standings d
WHERE d.guild_id = standings.guild_id AND d.variant = standings.variant
  AND d.vs_computer = standings.vs_computer AND d.player_id = standings.player_id;

UPDATE rivals SET
    points_won = rivals.points_won - d.points_won,
    points_lost = rivals.points_lost - d.points_lost
FROM mended_rivals d
WHERE d.guild_id = rivals.guild_id AND d.user_id = rivals.user_id
  AND d.opponent_id = rivals.opponent_id;

-- The head to head's latest games (rivals.recent, JSON: at most five, newest first, each
-- [game, finished at, outcome, my score, theirs, the game's points, variant]): a mended
-- game's points are 1.
UPDATE rivals SET recent = json_set(recent, '$[0][5]', 1)
WHERE (guild_id, user_id, opponent_id) IN
    (SELECT guild_id, user_id, opponent_id FROM mended_rivals)
  AND json_extract(recent, '$[0][0]') IN (SELECT game_id FROM mended_results);
UPDATE rivals SET recent = json_set(recent, '$[1][5]', 1)
WHERE (guild_id, user_id, opponent_id) IN
    (SELECT guild_id, user_id, opponent_id FROM mended_rivals)
  AND json_extract(recent, '$[1][0]') IN (SELECT game_id FROM mended_results);
UPDATE rivals SET recent = json_set(recent, '$[2][5]', 1)
WHERE (guild_id, user_id, opponent_id) IN
    (SELECT guild_id, user_id, opponent_id FROM mended_rivals)
  AND json_extract(recent, '$[2][0]') IN (SELECT game_id FROM mended_results);
UPDATE rivals SET recent = json_set(recent, '$[3][5]', 1)
WHERE (guild_id, user_id, opponent_id) IN
    (SELECT guild_id, user_id, opponent_id FROM mended_rivals)
  AND json_extract(recent, '$[3][0]') IN (SELECT game_id FROM mended_results);
UPDATE rivals SET recent = json_set(recent, '$[4][5]', 1)
WHERE (guild_id, user_id, opponent_id) IN
    (SELECT guild_id, user_id, opponent_id FROM mended_rivals)
  AND json_extract(recent, '$[4][0]') IN (SELECT game_id FROM mended_results);

UPDATE results SET game_points = 1, skunk_given = 0, skunk_taken = 0
WHERE (game_id, seat) IN (SELECT game_id, seat FROM mended_results);

DROP TABLE mended_rivals;
DROP TABLE mended_standings;
DROP TABLE mended_results;
