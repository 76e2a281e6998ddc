-- Who cancelled a tournament (issue 22: `/cribbage tournament cancel`), shown on its message.
ALTER TABLE tournaments ADD COLUMN cancelled_by INTEGER;
