-- older releases: run beside it
-- Every aggregate a change is decided on has a version (issue 66): a game had one (every move
-- a compare-and-set on it); a ranked match and a tournament's pairing now have theirs. Each
-- change of a match or a pairing moves it on in the statement that makes it, and the change
-- that opens a match's or a pairing's game is one conditional update of it (the version it was
-- read at, its state, its two players): a match decided, a pairing decided, a player renamed
-- by their deletion or withdrawn since it was read refuses the game, which is then decided
-- again from a new read (docs/architecture.md, "One discipline for every change").
--
-- Only columns with a default are added: a release before this one reads and writes both
-- tables as it did, and may run beside it. It changes a match or a pairing without moving its
-- version; the conditional update names the state and the players too, so what such a process
-- decides (a match finished, a pairing decided, a player withdrawn) still refuses the game.
ALTER TABLE ranked_matches ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournament_pairings ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
