-- older releases: run beside it
-- One game of a person's in a place is a constraint (issue 66), where it was a lock of the place
-- (an advisory lock, serialize_place) and a read of the other kind of write: `presence` holds a
-- row for each person present in a place, keyed by the place and the person, one for each seat
-- taken at a game not over there and one for each live ranked search from there (searching, or
-- matched: its match is played there). A seat and a search of the same person in the same place
-- are two rows with one key: the second write breaks it and changes nothing (bot/store/
-- one_game_here.py turns that into the refusal the resolver gives), whichever process makes
-- it, however the two race.
--
-- The database keeps the rows itself, by triggers on the seats, the games and the searches, so
-- no write can forget them: a seat taken (not the computer's, nor one kept for a rematch) at a
-- game not over, a game ending, a seat given up or renamed, a search starting, ending or renamed.
-- What is present now is written once here; a person present twice in a place already (what the
-- lock missed before it was mended) keeps the rows as they are, the first one written here.
--
-- Only a table and triggers are added, and the triggers keep it right whatever writes the seats
-- and the searches: a release before this one may run beside it (its own lock and read still
-- refuse first what they see; what they miss, the key refuses).

CREATE TABLE presence (
    channel_id BIGINT NOT NULL,
    user_id    BIGINT NOT NULL REFERENCES people (id) DEFERRABLE INITIALLY DEFERRED,
    game_id    BIGINT REFERENCES games (id) ON DELETE CASCADE,          -- a seat at this game
    entry_id   BIGINT REFERENCES ranked_entries (id) ON DELETE CASCADE, -- this live search
    CHECK ((game_id IS NULL) <> (entry_id IS NULL)),
    PRIMARY KEY (channel_id, user_id)
);
CREATE INDEX presence_of_game ON presence (game_id) WHERE game_id IS NOT NULL;
CREATE INDEX presence_of_entry ON presence (entry_id) WHERE entry_id IS NOT NULL;

INSERT INTO presence (channel_id, user_id, game_id)
SELECT g.channel_id, s.user_id, s.game_id FROM seats s JOIN games g ON g.id = s.game_id
WHERE g.status IN ('lobby', 'active') AND s.user_id IS NOT NULL AND s.is_computer = 0
  AND s.held_until IS NULL
ON CONFLICT DO NOTHING;
INSERT INTO presence (channel_id, user_id, entry_id)
SELECT channel_id, user_id, id FROM ranked_entries WHERE status IN ('searching', 'matched')
ON CONFLICT DO NOTHING;

-- A seat: present while it is a person's, taken, at a game not over.
CREATE FUNCTION presence_of_seat() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        DELETE FROM presence WHERE game_id = OLD.game_id AND user_id = OLD.user_id;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.user_id IS NOT NULL AND NEW.is_computer = 0
            AND NEW.held_until IS NULL THEN
        INSERT INTO presence (channel_id, user_id, game_id)
        SELECT g.channel_id, NEW.user_id, NEW.game_id FROM games g
        WHERE g.id = NEW.game_id AND g.status IN ('lobby', 'active');
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER seats_present AFTER INSERT OR DELETE OR UPDATE OF user_id, is_computer, held_until
    ON seats FOR EACH ROW EXECUTE FUNCTION presence_of_seat();

-- A game over: its seats are present nowhere.
CREATE FUNCTION presence_of_game() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM presence WHERE game_id = NEW.id;
    RETURN NULL;
END
$$;
CREATE TRIGGER games_present AFTER UPDATE OF status ON games FOR EACH ROW
    WHEN (OLD.status IN ('lobby', 'active') AND NEW.status NOT IN ('lobby', 'active'))
    EXECUTE FUNCTION presence_of_game();

-- A search: present where it was made while it is live.
CREATE FUNCTION presence_of_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        DELETE FROM presence WHERE entry_id = OLD.id;
    END IF;
    IF NEW.status IN ('searching', 'matched') THEN
        INSERT INTO presence (channel_id, user_id, entry_id)
        VALUES (NEW.channel_id, NEW.user_id, NEW.id);
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER ranked_entries_present AFTER INSERT OR UPDATE OF status, channel_id, user_id
    ON ranked_entries FOR EACH ROW EXECUTE FUNCTION presence_of_search();
