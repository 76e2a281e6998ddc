-- Clicks' answers not yet known to have reached Discord (issue 21): see the SQLite twin.
CREATE INDEX messages_unconfirmed ON messages (unconfirmed_since) WHERE unconfirmed_since IS NOT NULL;
