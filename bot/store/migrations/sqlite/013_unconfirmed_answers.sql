-- Clicks' answers not yet known to have reached Discord (issue 21): few at any moment, looked
-- for every few seconds by the process that sends, so that one whose process died before it
-- knew is edited again.
CREATE INDEX messages_unconfirmed ON messages (unconfirmed_since) WHERE unconfirmed_since IS NOT NULL;
