-- A computer seat's difficulty in a column of its own (it was only in the name shown at the
-- table, "Computer (hard)", which the bot had to parse back). Existing computer seats are
-- filled in from that name.

ALTER TABLE seats ADD COLUMN computer_level TEXT
    CHECK (computer_level IS NULL OR computer_level IN ('easy', 'medium', 'hard'));

UPDATE seats SET computer_level = CASE
        WHEN display_name LIKE '%(easy)' THEN 'easy'
        WHEN display_name LIKE '%(medium)' THEN 'medium'
        ELSE 'hard'
    END
    WHERE is_computer = 1;
