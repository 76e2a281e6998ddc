-- What a game is part of, said first in its lobby message: a tournament's round ("Round 2 of
-- the Swiss tournament"), instead of who opened it; NULL for a game someone opened (issue 33).
ALTER TABLE games ADD COLUMN occasion TEXT;
