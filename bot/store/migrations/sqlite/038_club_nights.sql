-- older releases: run beside it
-- Club nights (issue 70): a tournament scheduled for a time, as a Discord scheduled event,
-- once or coming round (weekly, every other week, monthly); each night its own tournament;
-- the nights of a club that recurs make its league.
--
-- clubs: one a channel while it has nights to come. repeat: once, weekly, fortnightly,
-- monthly; zone: the IANA time zone its nights' wall-clock time is read in; the tournament
-- each night plays (format, target, scoring, round_hours, rounds, match_games, variant);
-- voice_id: the voice channel its event is in (NULL: an external event, at the text
-- channel); events: whether the bot makes the server's Events entry (0: it may not, or a
-- moderator deleted it); event_id: that event (NULL: none yet); event_refused: when Discord
-- last refused it the permission; event_claimed: when a process claimed the making of the
-- event (one makes it: another may take the claim over a minute later, finding the event a
-- stop made); ended: no more nights.
--
-- nights: one row a night, its tournament made with it (taking entrants); usual_at: when its
-- club's rhythm put it (starts_at differs once a moderator moved it); state: scheduled,
-- check_in (its last minutes: check-in open, entrants reminded), started, played,
-- called_off, skipped, cancelled; note: why it was called off or cancelled; moved: a
-- moderator moved it from its club's rhythm; event_step: what the club's event was last
-- made to say of it (none, scheduled, started, ended); version: moved on by every change
-- (each change also moves its tournament's on, which draws its message again).
--
-- night_people: who marked the club's event Interested for a night, and who checked in
-- (checked_in: when).
--
-- It only adds. A release before it runs the nights' tournaments as any tournament (they
-- start when their organiser starts them).
CREATE TABLE clubs (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    organiser_id  INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    repeat        TEXT    NOT NULL
                  CHECK (repeat IN ('once', 'weekly', 'fortnightly', 'monthly')),
    zone          TEXT    NOT NULL,
    format        TEXT    NOT NULL,
    target        INTEGER NOT NULL,
    scoring       TEXT    NOT NULL,
    round_hours   REAL    NOT NULL,
    rounds        INTEGER NOT NULL DEFAULT 0,
    match_games   INTEGER NOT NULL DEFAULT 1,
    variant       TEXT    NOT NULL DEFAULT 'standard',
    voice_id      INTEGER,
    events        INTEGER NOT NULL DEFAULT 1,
    event_id      INTEGER,
    event_refused REAL,
    event_claimed REAL,
    ended         INTEGER NOT NULL DEFAULT 0,
    created_at    REAL    NOT NULL
);
CREATE UNIQUE INDEX clubs_one_per_channel ON clubs (channel_id) WHERE ended = 0;
CREATE INDEX clubs_by_event ON clubs (event_id) WHERE event_id IS NOT NULL;
CREATE INDEX clubs_by_guild ON clubs (guild_id);

CREATE TABLE nights (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    club_id       INTEGER NOT NULL REFERENCES clubs (id) ON DELETE CASCADE,
    number        INTEGER NOT NULL,
    starts_at     REAL    NOT NULL,
    usual_at      REAL    NOT NULL,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    state         TEXT    NOT NULL DEFAULT 'scheduled'
                  CHECK (state IN ('scheduled', 'check_in', 'started', 'played', 'called_off',
                                   'skipped', 'cancelled')),
    note          TEXT,
    moved         INTEGER NOT NULL DEFAULT 0,
    event_step    TEXT    NOT NULL DEFAULT 'none'
                  CHECK (event_step IN ('none', 'scheduled', 'started', 'ended')),
    version       INTEGER NOT NULL DEFAULT 1,
    UNIQUE (club_id, number)
);
CREATE UNIQUE INDEX nights_by_tournament ON nights (tournament_id);
CREATE INDEX nights_under_way ON nights (state)
    WHERE state IN ('scheduled', 'check_in', 'started');

CREATE TABLE night_people (
    night_id   INTEGER NOT NULL REFERENCES nights (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    interested INTEGER NOT NULL DEFAULT 0,
    checked_in REAL,
    PRIMARY KEY (night_id, user_id)
);
CREATE INDEX night_people_by_user ON night_people (user_id);
