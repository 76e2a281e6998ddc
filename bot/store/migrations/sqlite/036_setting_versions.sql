-- older releases: run beside it
-- user_settings.version: moved on by every change of a player's coach setting, and announced to
-- every process as the person's change (bot/store/archive_tables.py set_coach), so that each
-- keeps the setting in memory by its version and a read that such a change overtook is never
-- kept over it (bot/core/games/coach_settings.py). A row written before has version 0, as a
-- player with no row reads. A release before this one changes the coach without moving the
-- version on: while it runs beside, its processes' changes reach the others' memory once the
-- setting is read again.
-- user_settings_changed: the settings changed lately, which the process that sends reads every
-- few seconds should an announcement have been missed (bot/store/cluster.py).
ALTER TABLE user_settings ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
CREATE INDEX user_settings_changed ON user_settings (updated_at);
