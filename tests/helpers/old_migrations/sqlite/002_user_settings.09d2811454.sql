-- Per-user settings that follow a player across servers and games (DMs are per user too).
-- coach: 1 = after each show, DM the player a line about their discard (the default), 0 = off.

CREATE TABLE user_settings (
    user_id    INTEGER PRIMARY KEY,
    coach      INTEGER NOT NULL DEFAULT 1 CHECK (coach IN (0, 1)),
    updated_at REAL    NOT NULL
);
