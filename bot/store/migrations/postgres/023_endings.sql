-- older releases: run beside it
-- How a finished game ended (issue 54: one vocabulary of endings, bot/core/games/endings.py):
-- 'played' (a side reached the target), 'resigned', 'clock' (a ranked turn clock ran out),
-- 'left' (a player left their ranked match), 'deleted' (a player's data was deleted and their
-- game resigned for them). Written with the game's result, in the same transaction; NULL for
-- any other game (one that ended without a result says so by its status, cancelled or
-- expired, and its end_note).
--
-- It is the one record of how a game ended: ranked_games.ended_by, which said it of ranked
-- games apart from the game, is read and written no more (a release after this one removes
-- it; the release before still reads it, so it stays meanwhile), and results.reason keeps
-- the engine's reason for the game points (the target reached, or a concession at the
-- scores as they stand). This migration only adds: the games already finished are given
-- their ending from those two.
ALTER TABLE games ADD COLUMN ending TEXT;
UPDATE games SET ending = COALESCE(
    (SELECT CASE rg.ended_by WHEN 'clock' THEN 'clock' WHEN 'left' THEN 'left' END
     FROM ranked_games rg WHERE rg.game_id = games.id),
    (SELECT CASE WHEN r.reason = 'resigned' THEN 'resigned' ELSE 'played' END
     FROM results r WHERE r.game_id = games.id ORDER BY r.seat LIMIT 1),
    'played')
WHERE status = 'finished';
