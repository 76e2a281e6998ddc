-- older releases: run beside it
-- A ranked match may end without a result (ranked_matches.how 'cancelled', the games' own word
-- for it: bot/core/ranked/records.py NOT_RATED): the bot was down too long to reach one of its
-- players (bot/core/ranked/reach.py). Such a match has no winner, no season and no rating
-- change, and nobody abandoned it. Only the CHECK on `how` widens: every value a release
-- before this one writes is still allowed, so it may run beside it (it draws such a match as
-- one without a winner).
ALTER TABLE ranked_matches DROP CONSTRAINT ranked_matches_how_check;
ALTER TABLE ranked_matches ADD CONSTRAINT ranked_matches_how_check
    CHECK (how IS NULL OR how IN ('games', 'left', 'cancelled'));
