-- older releases: run beside it
-- Hints and lessons (issue 56).
--
-- games.hints: 1 where the table's opener allowed hints (`/cribbage new hints:True`); a game
-- against the computer alone offers them whatever it says. Set when the game is opened.
-- games.lesson: 1 for a first game of `/cribbage learn`: played against a gentle computer,
-- privately in the learner's DM with the bot (its channel_id), each rule explained the first
-- time it happens; one lesson of a person's is open at a time (the unique index below).
-- hints_taken: how many hints each seat of a game being played asked for (pruned with the
-- game); results.hints: that count, written with the seat's result and kept with it (the
-- result and the review say a game was played with hints).
-- user_settings.learn_offered: when `/cribbage help` offered `/cribbage learn` to someone with
-- no game on record (it is offered once; NULL: not yet).
-- seats_of_user: a person's seats, found by their id (has this person a game on record?).
--
-- It only adds. A release before it ignores the new columns: it opens no lesson, and offers
-- no hints.
ALTER TABLE games ADD COLUMN hints INTEGER NOT NULL DEFAULT 0 CHECK (hints IN (0, 1));
ALTER TABLE games ADD COLUMN lesson INTEGER NOT NULL DEFAULT 0 CHECK (lesson IN (0, 1));
CREATE UNIQUE INDEX games_one_open_lesson ON games (creator_id)
    WHERE lesson = 1 AND status IN ('lobby', 'active');
CREATE TABLE hints_taken (
    game_id BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat    INTEGER NOT NULL,
    hints   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seat)
);
ALTER TABLE results ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;
ALTER TABLE user_settings ADD COLUMN learn_offered DOUBLE PRECISION;
CREATE INDEX seats_of_user ON seats (user_id);
