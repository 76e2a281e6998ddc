-- older releases: run beside it
-- A server's settings (issue 70): time_zone, the IANA time zone its club nights' times are
-- read and shown in (a server with no row reads them in UTC).
--
-- It only adds.
CREATE TABLE server_settings (
    guild_id  INTEGER PRIMARY KEY,
    time_zone TEXT NOT NULL
);
