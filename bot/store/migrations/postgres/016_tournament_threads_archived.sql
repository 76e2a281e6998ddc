-- A decided pairing's thread is archived by the bot (issue 22): kept here so that it is
-- archived once, and a restart archives what a stop left open.
ALTER TABLE tournament_pairings ADD COLUMN archived INTEGER NOT NULL DEFAULT 0;
