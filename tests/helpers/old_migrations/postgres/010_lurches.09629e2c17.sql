-- Lurches and skunks counted apart (issue 11; the same as migrations/sqlite/010): each result keeps the rule its game was scored
-- by, and a player's standing counts the games won and lost by a lurch apart from those by a
-- skunk (until now one count held both). Results already kept take their game's rule; the
-- standings already kept move their lurches out of the skunk counts (a computer level's
-- player id as bot.core.ratings.COMPUTER_IDS gives it; a level seated twice counts a game once).

ALTER TABLE results ADD COLUMN scoring TEXT NOT NULL DEFAULT 'skunk'
    CHECK (scoring IN ('lurch', 'skunk'));
UPDATE results SET scoring = (SELECT g.scoring FROM games g WHERE g.id = results.game_id);

ALTER TABLE standings ADD COLUMN lurches_given INTEGER NOT NULL DEFAULT 0;
ALTER TABLE standings ADD COLUMN lurches_taken INTEGER NOT NULL DEFAULT 0;

UPDATE standings SET
    lurches_given = (
        SELECT COUNT(DISTINCT r.game_id) FROM results r
        WHERE r.scoring = 'lurch' AND r.skunk_given = 1
          AND COALESCE(r.guild_id, 0) = standings.guild_id
          AND r.vs_computer = standings.vs_computer
          AND (CASE WHEN r.is_computer = 1 THEN
                   CASE r.computer_level WHEN 'easy' THEN -1 WHEN 'medium' THEN -2
                                         WHEN 'expert' THEN -4 ELSE -3 END
               ELSE r.user_id END) = standings.player_id),
    lurches_taken = (
        SELECT COUNT(DISTINCT r.game_id) FROM results r
        WHERE r.scoring = 'lurch' AND r.skunk_taken = 1
          AND COALESCE(r.guild_id, 0) = standings.guild_id
          AND r.vs_computer = standings.vs_computer
          AND (CASE WHEN r.is_computer = 1 THEN
                   CASE r.computer_level WHEN 'easy' THEN -1 WHEN 'medium' THEN -2
                                         WHEN 'expert' THEN -4 ELSE -3 END
               ELSE r.user_id END) = standings.player_id);

UPDATE standings SET
    skunks_given = skunks_given - lurches_given,
    skunks_taken = skunks_taken - lurches_taken;
