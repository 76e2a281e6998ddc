-- older releases: run beside it
-- user_settings.version holds 64 bits: a setting's version is at least its change's time in
-- milliseconds (bot/store/archive_tables.py set_coach), so that a setting made after its person's
-- data was deleted (the row and its version with it) still comes after every version another
-- process keeps in memory from before. A release before this one moves it on by one, as ever.
ALTER TABLE user_settings ALTER COLUMN version TYPE BIGINT;
