-- Variants (issue 35): see the SQLite twin. A game, its results, its rating changes, each
-- standing and a tournament keep their variant ('standard' for all before); a game may seat
-- two players or more, in seats from 0, and play to any target (the core checks the
-- variant's own); each variant is rated apart, so a standing is keyed by its variant too.
-- (The CHECKs written on the columns are named by PostgreSQL's rule: table_column_check.)

ALTER TABLE games ADD COLUMN variant TEXT NOT NULL DEFAULT 'standard';
ALTER TABLE games DROP CONSTRAINT games_num_players_check;
ALTER TABLE games ADD CONSTRAINT games_num_players_check CHECK (num_players >= 2);
ALTER TABLE games DROP CONSTRAINT games_target_check;
ALTER TABLE games ADD CONSTRAINT games_target_check CHECK (target > 0);

ALTER TABLE seats DROP CONSTRAINT seats_seat_check;
ALTER TABLE seats ADD CONSTRAINT seats_seat_check CHECK (seat >= 0);
ALTER TABLE reviews DROP CONSTRAINT reviews_seat_check;
ALTER TABLE reviews ADD CONSTRAINT reviews_seat_check CHECK (seat >= 0);

ALTER TABLE results ADD COLUMN variant TEXT NOT NULL DEFAULT 'standard';

ALTER TABLE rating_changes ADD COLUMN variant TEXT NOT NULL DEFAULT 'standard';
DROP INDEX rating_changes_by_player;
CREATE INDEX rating_changes_by_player
    ON rating_changes (guild_id, variant, vs_computer, player_id, rated_order);

ALTER TABLE standings ADD COLUMN variant TEXT NOT NULL DEFAULT 'standard';
ALTER TABLE standings DROP CONSTRAINT standings_pkey;
ALTER TABLE standings ADD PRIMARY KEY (guild_id, variant, vs_computer, player_id);
DROP INDEX standings_by_rating;
CREATE INDEX standings_by_rating
    ON standings (guild_id, variant, vs_computer, ordinal DESC, player_id);

ALTER TABLE tournaments ADD COLUMN variant TEXT NOT NULL DEFAULT 'standard';
ALTER TABLE tournaments DROP CONSTRAINT tournaments_target_check;
ALTER TABLE tournaments ADD CONSTRAINT tournaments_target_check CHECK (target > 0);
