-- The table's options, chosen at /cribbage new and kept with the game: the rule for game
-- points ('lurch', the rules documents' default, or the American 'skunk' scale) and who counts
-- the show ('auto', or 'manual': each owner claims, with muggins). Games created before these
-- existed were scored on the skunk scale and counted automatically, and keep that.
ALTER TABLE games ADD COLUMN scoring TEXT NOT NULL DEFAULT 'skunk'
    CHECK (scoring IN ('lurch', 'skunk'));
ALTER TABLE games ADD COLUMN counting TEXT NOT NULL DEFAULT 'auto'
    CHECK (counting IN ('auto', 'manual'));

-- Manual counting's stats, per player per game: points their claims left out, points
-- opponents took from them by muggins (given), and points they took by muggins (taken).
ALTER TABLE results ADD COLUMN points_missed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE results ADD COLUMN muggins_given INTEGER NOT NULL DEFAULT 0;
ALTER TABLE results ADD COLUMN muggins_taken INTEGER NOT NULL DEFAULT 0;
