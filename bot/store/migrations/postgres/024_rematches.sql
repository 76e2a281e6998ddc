-- older releases: run beside it
-- Rematches and the series they make (issue 58). A finished game's result offers *Rematch*:
-- it opens a game at the same table with the same options and seats, each person of the game
-- before holding their seat until they take it with one press or its time passes.
--
-- games.rematch_of: the game whose result opened this one (NULL: opened any other way). One
-- rematch a game at most: the unique index refuses a second, whichever process asks, as the
-- one-open-game-per-channel index refuses a second game at one table.
-- games.series: the first game of the series this finished game continues (the same people
-- at the same table, each game the rematch of the one before, within a day of it), written
-- with its result; NULL for a game that continues none. The series' score is drawn from the
-- results of its games, kept nowhere else.
-- seats.held_until: a seat kept for a person of the game before, until that time (seconds
-- since the epoch); NULL for a seat taken. Once the time has passed anyone may take it.
--
-- It only adds. A release before it reads a held seat as taken (it may deal a rematch whose
-- held seat was never taken, or store the lobby's seats again without their hold): during an
-- upgrade, a held person may find themselves seated.
ALTER TABLE games ADD COLUMN rematch_of BIGINT;
ALTER TABLE games ADD COLUMN series BIGINT;
CREATE UNIQUE INDEX games_one_rematch ON games (rematch_of) WHERE rematch_of IS NOT NULL;
CREATE INDEX games_of_series ON games (series) WHERE series IS NOT NULL;
ALTER TABLE seats ADD COLUMN held_until DOUBLE PRECISION;
