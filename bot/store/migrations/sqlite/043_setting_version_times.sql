-- older releases: run beside it
-- The twin of PostgreSQL's 043 (user_settings.version holds 64 bits, a setting's version being at
-- least its change's time in milliseconds): SQLite's INTEGER holds 64 bits already, so nothing
-- here changes the schema.
SELECT 1;
