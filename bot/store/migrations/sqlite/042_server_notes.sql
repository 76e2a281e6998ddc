-- older releases: run beside it
-- The note that the bot left a server has a version (issue 66): each batch of the server's data
-- deleted moves it on, in the batch's transaction, where the note still says the bot left by
-- then (a compare-and-set of the note, where a batch locked it with FOR UPDATE and read it): a
-- process that hears the bot invited back deletes the note once the batch under way commits,
-- and the next batch finds none. Only a column with a default is added; the release before
-- locks the note as it did, which the next batch of this one waits for all the same.
ALTER TABLE servers_left ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
