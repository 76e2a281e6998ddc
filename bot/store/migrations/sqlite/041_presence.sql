-- older releases: run beside it
-- One game of a person's in a place is a constraint (issue 66), where it was a lock of the place
-- (SQLite's one write lock, taken before a read of the other kind of write): `presence` holds a
-- row for each person present in a place, keyed by the place and the person, one for each seat
-- taken at a game not over there and one for each live ranked search from there (searching, or
-- matched: its match is played there). A seat and a search of the same person in the same place
-- are two rows with one key: the second write breaks it and changes nothing (bot/store/
-- one_game_here.py turns that into the refusal the resolver gives).
--
-- The database keeps the rows itself, by triggers on the seats, the games and the searches, so
-- no write can forget them: a seat taken (not the computer's, nor one kept for a rematch) at a
-- game not over, a game ending, a seat given up or renamed, a search starting, ending or renamed.
-- What is present now is written once here; a person present twice in a place already keeps the
-- rows as they are, the first one written here.
--
-- Only a table and triggers are added, and the triggers keep it right whatever writes the seats
-- and the searches: a release before this one may run beside it.

CREATE TABLE presence (
    channel_id INTEGER NOT NULL,
    user_id    INTEGER NOT NULL REFERENCES people (id) DEFERRABLE INITIALLY DEFERRED,
    game_id    INTEGER REFERENCES games (id) ON DELETE CASCADE,          -- a seat at this game
    entry_id   INTEGER REFERENCES ranked_entries (id) ON DELETE CASCADE, -- this live search
    CHECK ((game_id IS NULL) <> (entry_id IS NULL)),
    PRIMARY KEY (channel_id, user_id)
);
CREATE INDEX presence_of_game ON presence (game_id) WHERE game_id IS NOT NULL;
CREATE INDEX presence_of_entry ON presence (entry_id) WHERE entry_id IS NOT NULL;

INSERT OR IGNORE INTO presence (channel_id, user_id, game_id)
SELECT g.channel_id, s.user_id, s.game_id FROM seats s JOIN games g ON g.id = s.game_id
WHERE g.status IN ('lobby', 'active') AND s.user_id IS NOT NULL AND s.is_computer = 0
  AND s.held_until IS NULL;
INSERT OR IGNORE INTO presence (channel_id, user_id, entry_id)
SELECT channel_id, user_id, id FROM ranked_entries WHERE status IN ('searching', 'matched');

-- A seat: present while it is a person's, taken, at a game not over.
CREATE TRIGGER seats_present AFTER INSERT ON seats
WHEN NEW.user_id IS NOT NULL AND NEW.is_computer = 0 AND NEW.held_until IS NULL
BEGIN
    INSERT INTO presence (channel_id, user_id, game_id)
    SELECT channel_id, NEW.user_id, NEW.game_id FROM games
    WHERE id = NEW.game_id AND status IN ('lobby', 'active');
END;
CREATE TRIGGER seats_absent AFTER DELETE ON seats
BEGIN
    DELETE FROM presence WHERE game_id = OLD.game_id AND user_id = OLD.user_id;
END;
CREATE TRIGGER seats_moved AFTER UPDATE OF user_id, is_computer, held_until ON seats
BEGIN
    DELETE FROM presence WHERE game_id = OLD.game_id AND user_id = OLD.user_id;
    INSERT INTO presence (channel_id, user_id, game_id)
    SELECT channel_id, NEW.user_id, NEW.game_id FROM games
    WHERE id = NEW.game_id AND status IN ('lobby', 'active') AND NEW.user_id IS NOT NULL
      AND NEW.is_computer = 0 AND NEW.held_until IS NULL;
END;

-- A game over: its seats are present nowhere.
CREATE TRIGGER games_present AFTER UPDATE OF status ON games
WHEN OLD.status IN ('lobby', 'active') AND NEW.status NOT IN ('lobby', 'active')
BEGIN
    DELETE FROM presence WHERE game_id = NEW.id;
END;

-- A search: present where it was made while it is live.
CREATE TRIGGER ranked_entries_present AFTER INSERT ON ranked_entries
WHEN NEW.status IN ('searching', 'matched')
BEGIN
    INSERT INTO presence (channel_id, user_id, entry_id)
    VALUES (NEW.channel_id, NEW.user_id, NEW.id);
END;
CREATE TRIGGER ranked_entries_moved AFTER UPDATE OF status, channel_id, user_id ON ranked_entries
BEGIN
    DELETE FROM presence WHERE entry_id = OLD.id;
    INSERT INTO presence (channel_id, user_id, entry_id)
    SELECT NEW.channel_id, NEW.user_id, NEW.id WHERE NEW.status IN ('searching', 'matched');
END;
