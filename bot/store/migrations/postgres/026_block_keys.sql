-- older releases: run beside it
-- A ranked block outlives the blocked player's deletion, without their Discord id.
--
-- ranked_blocks.blocked_key: NULL while blocked_id is the blocked player's Discord id. Once
-- they have their data deleted, blocked_id is a former player's id, name "Former player", and
-- blocked_key a keyed hash of their id (HMAC-SHA256 under the secret `keyed_ids` of
-- bot_secrets, hex), which knows them again should they search, and can't be turned back into
-- their id: the block holds, and the blocker can still lift it.
-- bot_secrets: the bot's own secrets by name, each made on first use and kept (of two
-- processes making one at once, the first's is kept and both read it): the same in every
-- process and across restarts.
--
-- It only adds. A release before it ignores blocked_key: in its processes a block of a
-- deleted player does not hold against their search, and its deletion deletes a block of the
-- person deleted, as it always did.
ALTER TABLE ranked_blocks ADD COLUMN blocked_key TEXT;
CREATE INDEX ranked_blocked_keys ON ranked_blocks (blocked_key) WHERE blocked_key IS NOT NULL;
CREATE TABLE bot_secrets (
    name   TEXT NOT NULL PRIMARY KEY,
    secret TEXT NOT NULL
);
