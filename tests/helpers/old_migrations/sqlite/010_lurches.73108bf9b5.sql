-- Lurches and skunks counted apart (issue 11): each result keeps the rule its game was scored
-- by, and a player's standing counts the games won and lost by a lurch apart from those by a
-- skunk (until now one count held both). Results already kept take their game's rule; the
-- standings already kept move their lurches out of the skunk counts (a computer level's
-- player id as bot.core.ratings.COMPUTER_IDS gives it; a level seated twice counts a game once).
-- (UPDATE ... FROM needs SQLite 3.33 or later, which every supported Python ships or links.)

ALTER TABLE results ADD COLUMN scoring TEXT NOT NULL DEFAULT 'skunk'
    CHECK (scoring IN ('lurch', 'skunk'));
UPDATE results SET scoring = (SELECT g.scoring FROM games g WHERE g.id = results.game_id);

ALTER TABLE standings ADD COLUMN lurches_given INTEGER NOT NULL DEFAULT 0;
ALTER TABLE standings ADD COLUMN lurches_taken INTEGER NOT NULL DEFAULT 0;

UPDATE standings SET lurches_given = lurched.given, lurches_taken = lurched.taken
FROM (
    SELECT guild_id, vs_computer, player_id,
           COUNT(DISTINCT CASE WHEN skunk_given = 1 THEN game_id END) AS given,
           COUNT(DISTINCT CASE WHEN skunk_taken = 1 THEN game_id END) AS taken
    FROM (
        SELECT game_id, skunk_given, skunk_taken, vs_computer,
               COALESCE(guild_id, 0) AS guild_id,
               CASE WHEN is_computer = 1 THEN
                        CASE computer_level WHEN 'easy' THEN -1 WHEN 'medium' THEN -2
                                            WHEN 'expert' THEN -4 ELSE -3 END
                    ELSE user_id END AS player_id
        FROM results WHERE scoring = 'lurch'
    ) AS rows
    GROUP BY guild_id, vs_computer, player_id
) AS lurched
WHERE standings.guild_id = lurched.guild_id AND standings.vs_computer = lurched.vs_computer
  AND standings.player_id = lurched.player_id;

UPDATE standings SET
    skunks_given = skunks_given - lurches_given,
    skunks_taken = skunks_taken - lurches_taken;
