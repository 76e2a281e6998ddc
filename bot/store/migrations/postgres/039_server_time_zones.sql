-- older releases: run beside it
-- A server's settings (issue 70). See the SQLite twin.
CREATE TABLE server_settings (
    guild_id  BIGINT PRIMARY KEY,
    time_zone TEXT NOT NULL
);
