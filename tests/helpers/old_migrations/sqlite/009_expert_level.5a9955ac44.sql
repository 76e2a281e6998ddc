-- The expert level: a computer seat's computer_level may be 'expert' (issue 12).
--
-- SQLite cannot change a column's CHECK in place, so the seats table is made again the way
-- SQLite's documentation says (https://www.sqlite.org/lang_altertable.html, "Making Other
-- Kinds Of Table Schema Changes"): a new table with the new definition, every row copied,
-- the old table dropped and the new one renamed, in the one transaction the migration runs
-- in. Foreign keys stay on throughout: no table, trigger or view refers to seats (seats
-- refers to games, and its rows keep their game ids), and its only indexes are its primary
-- key and unique key, which the new definition makes again. The columns keep their order.
--
-- (Numbered 009: 008 is another branch's migration. The runner applies every file above the
-- database's user_version, in order.)

CREATE TABLE seats_new (
    game_id        INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat           INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    user_id        INTEGER,
    display_name   TEXT    NOT NULL,
    is_computer    INTEGER NOT NULL DEFAULT 0,
    computer_level TEXT
        CHECK (computer_level IS NULL OR computer_level IN ('easy', 'medium', 'hard', 'expert')),
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id)
);

INSERT INTO seats_new (game_id, seat, user_id, display_name, is_computer, computer_level)
    SELECT game_id, seat, user_id, display_name, is_computer, computer_level FROM seats;

DROP TABLE seats;

ALTER TABLE seats_new RENAME TO seats;
