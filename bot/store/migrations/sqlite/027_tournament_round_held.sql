-- older releases: run beside it
-- A round's clock stops while Discord refuses the bot its tables (a permission taken away in
-- the tournament's channel). tournaments.refused_since: when it began refusing them (NULL:
-- it takes them); tournaments.round_held: the seconds of the round being played spent so
-- before, which its deadline adds to round_started + round_hours. Both cleared when a round
-- is paired.
--
-- It only adds. A release before it ignores both: its deadline counts the time refused.
ALTER TABLE tournaments ADD COLUMN round_held REAL NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN refused_since REAL;
