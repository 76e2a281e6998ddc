-- older releases: run beside it
-- A person is a row (issue 66): `people`, one per Discord user the bot keeps anything of (and
-- one per former player, the id a deleted person's rows stay under for the others, and one per
-- computer level the standings rate as a player: bot.core.standings.ratings). Every
-- column that holds a person's id references it (bot/core/privacy/inventory.py names each;
-- tests/bot/store/test_inventory.py checks the two agree), so "nothing is kept of a deleted
-- person" holds by the schema rather than by a lock every write takes (DELETION_LOCK):
--
-- - A deletion moves the person's row to a former player's id (UPDATE people SET id): every
--   row that names them follows at once (ON UPDATE CASCADE), in the same statement, whichever
--   table it is in; the deletion then deletes what goes and renames what stays by the former
--   id, which nobody else knows.
-- - A write of something of theirs made after it finds no person and keeps nothing: the
--   reference is checked when its transaction commits (DEFERRABLE INITIALLY DEFERRED), which
--   waits for a deletion under way and then finds the person gone, in whichever process it
--   was sent from. A write that commits first is renamed or deleted with the rest.
-- - What is made from a row as it was read references that row, not the person alone: a
--   review its seat (game, seat, player), a ranked card's record its search (entry, player).
--   A person who comes back after their deletion is a new row; what was made from their old
--   seat or search still finds nothing (the seat and the search are a former player's).
--
-- Every existing database keeps its data: the people are every id its person columns hold
-- (a former player's too), made before the references are checked.
--
-- A release before this one may run beside it (an upgrade, one process at a time): it writes a
-- person's rows without a row of the person, so, for its writes alone, a trigger on each table
-- makes the rows of the people they name (an older release's connection does not say it writes
-- them: this release's say so, `cribbage.writes_people`, bot/store/postgres.py). Its deletion
-- of a person renames their rows as it always did, and leaves their bare row (their id, nothing
-- of theirs refers to it): the release that takes these triggers away, once no release before
-- this one runs, deletes the rows nothing refers to.

CREATE TABLE people (
    id      BIGINT  NOT NULL PRIMARY KEY,  -- a user's id, a former player's or a computer's level's
    version INTEGER NOT NULL DEFAULT 0     -- moved on by each change of the person's own
);

INSERT INTO people (id)
SELECT user_id FROM seats WHERE user_id IS NOT NULL
UNION SELECT user_id FROM results WHERE user_id IS NOT NULL
UNION SELECT creator_id FROM games
UNION SELECT player_id FROM standings
UNION SELECT player_id FROM rating_changes
UNION SELECT user_id FROM rivals
UNION SELECT opponent_id FROM rivals
UNION SELECT user_id FROM reviews WHERE user_id IS NOT NULL
UNION SELECT user_id FROM daily_answers
UNION SELECT user_id FROM tournament_entrants
UNION SELECT player_a FROM tournament_pairings
UNION SELECT player_b FROM tournament_pairings WHERE player_b IS NOT NULL
UNION SELECT winner FROM tournament_pairings WHERE winner IS NOT NULL
UNION SELECT organiser_id FROM tournaments
UNION SELECT champion_id FROM tournaments WHERE champion_id IS NOT NULL
UNION SELECT cancelled_by FROM tournaments WHERE cancelled_by IS NOT NULL
UNION SELECT user_id FROM ranked_entries
UNION SELECT last_opponent FROM ranked_entries WHERE last_opponent IS NOT NULL
UNION SELECT player_a FROM ranked_matches
UNION SELECT player_b FROM ranked_matches
UNION SELECT winner FROM ranked_matches WHERE winner IS NOT NULL
UNION SELECT abandoned_by FROM ranked_matches WHERE abandoned_by IS NOT NULL
UNION SELECT winner FROM ranked_games WHERE winner IS NOT NULL
UNION SELECT user_id FROM ranked_ratings
UNION SELECT user_id FROM ranked_changes
UNION SELECT user_id FROM ranked_blocks
UNION SELECT blocked_id FROM ranked_blocks
UNION SELECT user_id FROM user_settings
UNION SELECT user_id FROM dm_links
UNION SELECT user_id FROM members_seen
UNION SELECT organiser_id FROM clubs
UNION SELECT user_id FROM night_people;

-- What a review and a ranked card's record reference: a seat as it names its player, a search
-- as it names its player.
CREATE UNIQUE INDEX seats_of_player ON seats (game_id, seat, user_id);
CREATE UNIQUE INDEX ranked_entries_of_player ON ranked_entries (id, user_id);

-- A ranked card's record (a message, or a post about to be made, of a `ranked:<entry>` owner)
-- names the search it was drawn from and its player as read (NULL for every other owner's).
ALTER TABLE messages ADD COLUMN card_entry BIGINT;
ALTER TABLE messages ADD COLUMN card_user BIGINT;
ALTER TABLE pending_posts ADD COLUMN card_entry BIGINT;
ALTER TABLE pending_posts ADD COLUMN card_user BIGINT;
UPDATE messages SET card_entry = e.id, card_user = e.user_id FROM ranked_entries e
WHERE messages.owner LIKE 'ranked:%'
  AND e.id = CASE WHEN messages.owner LIKE 'ranked:%' THEN substr(messages.owner, 8)::bigint END;
UPDATE pending_posts SET card_entry = e.id, card_user = e.user_id FROM ranked_entries e
WHERE pending_posts.owner LIKE 'ranked:%'
  AND e.id = CASE WHEN pending_posts.owner LIKE 'ranked:%'
                  THEN substr(pending_posts.owner, 8)::bigint END;
CREATE INDEX messages_of_card ON messages (card_entry, card_user) WHERE card_entry IS NOT NULL;
CREATE INDEX pending_posts_of_card ON pending_posts (card_entry, card_user)
    WHERE card_entry IS NOT NULL;

ALTER TABLE seats ADD FOREIGN KEY (user_id) REFERENCES people (id)
    ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE results ADD FOREIGN KEY (user_id) REFERENCES people (id)
    ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE games ADD FOREIGN KEY (creator_id) REFERENCES people (id)
    ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE standings ADD FOREIGN KEY (player_id) REFERENCES people (id)
    ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE rating_changes ADD FOREIGN KEY (player_id) REFERENCES people (id)
    ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE rivals ADD FOREIGN KEY (user_id) REFERENCES people (id)
    ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE rivals ADD FOREIGN KEY (opponent_id) REFERENCES people (id)
    ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE reviews ADD FOREIGN KEY (user_id) REFERENCES people (id)
    ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE reviews ADD FOREIGN KEY (game_id, seat, user_id)
    REFERENCES seats (game_id, seat, user_id)
    ON UPDATE CASCADE ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE daily_answers ADD FOREIGN KEY (user_id) REFERENCES people (id)
    ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE tournament_entrants ADD FOREIGN KEY (user_id) REFERENCES people (id)
    ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE tournament_pairings ADD FOREIGN KEY (player_a) REFERENCES people (id)
    ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE tournament_pairings ADD FOREIGN KEY (player_b) REFERENCES people (id)
    ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE tournament_pairings ADD FOREIGN KEY (winner) REFERENCES people (id)
    ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE tournaments ADD FOREIGN KEY (organiser_id) REFERENCES people (id)
    ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE tournaments ADD FOREIGN KEY (champion_id) REFERENCES people (id)
    ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE tournaments ADD FOREIGN KEY (cancelled_by) REFERENCES people (id)
    ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE ranked_entries ADD FOREIGN KEY (user_id) REFERENCES people (id)
    ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE ranked_entries ADD FOREIGN KEY (last_opponent) REFERENCES people (id)
    ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE ranked_matches ADD FOREIGN KEY (player_a) REFERENCES people (id)
    ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE ranked_matches ADD FOREIGN KEY (player_b) REFERENCES people (id)
    ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE ranked_matches ADD FOREIGN KEY (winner) REFERENCES people (id)
    ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE ranked_matches ADD FOREIGN KEY (abandoned_by) REFERENCES people (id)
    ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE ranked_games ADD FOREIGN KEY (winner) REFERENCES people (id)
    ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE ranked_ratings ADD FOREIGN KEY (user_id) REFERENCES people (id)
    ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE ranked_changes ADD FOREIGN KEY (user_id) REFERENCES people (id)
    ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE ranked_blocks ADD FOREIGN KEY (user_id) REFERENCES people (id)
    ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE ranked_blocks ADD FOREIGN KEY (blocked_id) REFERENCES people (id)
    ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE user_settings ADD FOREIGN KEY (user_id) REFERENCES people (id)
    ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE dm_links ADD FOREIGN KEY (user_id) REFERENCES people (id)
    ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE members_seen ADD FOREIGN KEY (user_id) REFERENCES people (id)
    ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE clubs ADD FOREIGN KEY (organiser_id) REFERENCES people (id)
    ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE night_people ADD FOREIGN KEY (user_id) REFERENCES people (id)
    ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE messages ADD FOREIGN KEY (card_entry, card_user)
    REFERENCES ranked_entries (id, user_id)
    ON UPDATE CASCADE ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE pending_posts ADD FOREIGN KEY (card_entry, card_user)
    REFERENCES ranked_entries (id, user_id)
    ON UPDATE CASCADE ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED;

-- The rows of the people an older release's write names (see above): made before the write,
-- for its connection alone.
CREATE FUNCTION people_of_older_releases() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    named text;
    person bigint;
BEGIN
    FOREACH named IN ARRAY TG_ARGV LOOP
        person := (to_jsonb(NEW) ->> named)::bigint;
        IF person IS NOT NULL THEN
            INSERT INTO people (id) VALUES (person) ON CONFLICT (id) DO NOTHING;
        END IF;
    END LOOP;
    RETURN NEW;
END
$$;
CREATE TRIGGER seats_people_of_older_releases
    BEFORE INSERT OR UPDATE OF user_id ON seats FOR EACH ROW
    WHEN (current_setting('cribbage.writes_people', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION people_of_older_releases('user_id');
CREATE TRIGGER results_people_of_older_releases
    BEFORE INSERT OR UPDATE OF user_id ON results FOR EACH ROW
    WHEN (current_setting('cribbage.writes_people', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION people_of_older_releases('user_id');
CREATE TRIGGER games_people_of_older_releases
    BEFORE INSERT OR UPDATE OF creator_id ON games FOR EACH ROW
    WHEN (current_setting('cribbage.writes_people', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION people_of_older_releases('creator_id');
CREATE TRIGGER standings_people_of_older_releases
    BEFORE INSERT OR UPDATE OF player_id ON standings FOR EACH ROW
    WHEN (current_setting('cribbage.writes_people', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION people_of_older_releases('player_id');
CREATE TRIGGER rating_changes_people_of_older_releases
    BEFORE INSERT OR UPDATE OF player_id ON rating_changes FOR EACH ROW
    WHEN (current_setting('cribbage.writes_people', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION people_of_older_releases('player_id');
CREATE TRIGGER rivals_people_of_older_releases
    BEFORE INSERT OR UPDATE OF user_id, opponent_id ON rivals FOR EACH ROW
    WHEN (current_setting('cribbage.writes_people', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION people_of_older_releases('user_id', 'opponent_id');
CREATE TRIGGER reviews_people_of_older_releases
    BEFORE INSERT OR UPDATE OF user_id ON reviews FOR EACH ROW
    WHEN (current_setting('cribbage.writes_people', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION people_of_older_releases('user_id');
CREATE TRIGGER daily_answers_people_of_older_releases
    BEFORE INSERT OR UPDATE OF user_id ON daily_answers FOR EACH ROW
    WHEN (current_setting('cribbage.writes_people', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION people_of_older_releases('user_id');
CREATE TRIGGER tournament_entrants_people_of_older_releases
    BEFORE INSERT OR UPDATE OF user_id ON tournament_entrants FOR EACH ROW
    WHEN (current_setting('cribbage.writes_people', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION people_of_older_releases('user_id');
CREATE TRIGGER tournament_pairings_people_of_older_releases
    BEFORE INSERT OR UPDATE OF player_a, player_b, winner ON tournament_pairings FOR EACH ROW
    WHEN (current_setting('cribbage.writes_people', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION people_of_older_releases('player_a', 'player_b', 'winner');
CREATE TRIGGER tournaments_people_of_older_releases
    BEFORE INSERT OR UPDATE OF organiser_id, champion_id, cancelled_by ON tournaments FOR EACH ROW
    WHEN (current_setting('cribbage.writes_people', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION people_of_older_releases('organiser_id', 'champion_id', 'cancelled_by');
CREATE TRIGGER ranked_entries_people_of_older_releases
    BEFORE INSERT OR UPDATE OF user_id, last_opponent ON ranked_entries FOR EACH ROW
    WHEN (current_setting('cribbage.writes_people', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION people_of_older_releases('user_id', 'last_opponent');
CREATE TRIGGER ranked_matches_people_of_older_releases
    BEFORE INSERT OR UPDATE OF player_a, player_b, winner, abandoned_by ON ranked_matches
    FOR EACH ROW
    WHEN (current_setting('cribbage.writes_people', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION people_of_older_releases('player_a', 'player_b', 'winner', 'abandoned_by');
CREATE TRIGGER ranked_games_people_of_older_releases
    BEFORE INSERT OR UPDATE OF winner ON ranked_games FOR EACH ROW
    WHEN (current_setting('cribbage.writes_people', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION people_of_older_releases('winner');
CREATE TRIGGER ranked_ratings_people_of_older_releases
    BEFORE INSERT OR UPDATE OF user_id ON ranked_ratings FOR EACH ROW
    WHEN (current_setting('cribbage.writes_people', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION people_of_older_releases('user_id');
CREATE TRIGGER ranked_changes_people_of_older_releases
    BEFORE INSERT OR UPDATE OF user_id ON ranked_changes FOR EACH ROW
    WHEN (current_setting('cribbage.writes_people', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION people_of_older_releases('user_id');
CREATE TRIGGER ranked_blocks_people_of_older_releases
    BEFORE INSERT OR UPDATE OF user_id, blocked_id ON ranked_blocks FOR EACH ROW
    WHEN (current_setting('cribbage.writes_people', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION people_of_older_releases('user_id', 'blocked_id');
CREATE TRIGGER user_settings_people_of_older_releases
    BEFORE INSERT OR UPDATE OF user_id ON user_settings FOR EACH ROW
    WHEN (current_setting('cribbage.writes_people', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION people_of_older_releases('user_id');
CREATE TRIGGER dm_links_people_of_older_releases
    BEFORE INSERT OR UPDATE OF user_id ON dm_links FOR EACH ROW
    WHEN (current_setting('cribbage.writes_people', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION people_of_older_releases('user_id');
CREATE TRIGGER members_seen_people_of_older_releases
    BEFORE INSERT OR UPDATE OF user_id ON members_seen FOR EACH ROW
    WHEN (current_setting('cribbage.writes_people', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION people_of_older_releases('user_id');
CREATE TRIGGER clubs_people_of_older_releases
    BEFORE INSERT OR UPDATE OF organiser_id ON clubs FOR EACH ROW
    WHEN (current_setting('cribbage.writes_people', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION people_of_older_releases('organiser_id');
CREATE TRIGGER night_people_people_of_older_releases
    BEFORE INSERT OR UPDATE OF user_id ON night_people FOR EACH ROW
    WHEN (current_setting('cribbage.writes_people', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION people_of_older_releases('user_id');
