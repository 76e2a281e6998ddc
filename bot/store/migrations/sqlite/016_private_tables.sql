-- A game played where the bot is not a member (a DM between people, a group DM, a server that
-- did not invite it, reached through a user install): its bot token may not post or edit
-- there, so the game's messages are reached through interactions' tokens alone (issue 24).
ALTER TABLE games ADD COLUMN private_table INTEGER NOT NULL DEFAULT 0
    CHECK (private_table IN (0, 1));
