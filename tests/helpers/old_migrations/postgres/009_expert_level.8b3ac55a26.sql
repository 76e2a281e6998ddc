-- The expert level: a computer seat's computer_level may be 'expert' (issue 12). The CHECK
-- written with the column in 006_base has PostgreSQL's default name for it.
--
-- (Numbered 009: 008 is another branch's migration. The runner applies every file above the
-- database's schema version, in order.)

ALTER TABLE seats DROP CONSTRAINT seats_computer_level_check;

ALTER TABLE seats ADD CONSTRAINT seats_computer_level_check
    CHECK (computer_level IS NULL OR computer_level IN ('easy', 'medium', 'hard', 'expert'));
